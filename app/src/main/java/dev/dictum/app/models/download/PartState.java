package dev.dictum.app.models.download;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * What is known about a partial file, kept beside it ({@code NAME.part.json}) so that a download resumes
 * after a cancel, a dropped connection or a restart of the app: the URL it came from, the validator
 * for {@code If-Range}, the hashes and size the server published, and whether it was verified.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
record PartState(String url, String validator, String sha256, String gitBlobSha1, long total, boolean verified) {

    private static final ObjectMapper JSON = new ObjectMapper();

    static PartState fresh(String url) {
        return new PartState(url, null, null, null, -1, false);
    }

    /** The state beside {@code part}, or null when there is none or it is unreadable (then start over). */
    static PartState read(Path stateFile) {
        if (!Files.isRegularFile(stateFile)) {
            return null;
        }
        try {
            return JSON.readValue(stateFile.toFile(), PartState.class);
        } catch (IOException e) {
            return null;
        }
    }

    /** Written to a temporary file and moved over the old one, so a crash leaves one or the other. */
    void write(Path stateFile) throws IOException {
        Path tmp = stateFile.resolveSibling(stateFile.getFileName() + ".tmp");
        JSON.writeValue(tmp.toFile(), this);
        Files.move(tmp, stateFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    PartState withServer(HubHeaders hub, long total) {
        return new PartState(url, hub.validator().orElse(validator), hub.sha256().orElse(sha256),
                hub.gitBlobSha1().orElse(gitBlobSha1), total, false);
    }

    PartState asVerified() {
        return new PartState(url, validator, sha256, gitBlobSha1, total, true);
    }
}
