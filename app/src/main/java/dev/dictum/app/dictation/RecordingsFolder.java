package dev.dictum.app.dictation;

import dev.dictum.audio.WavWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The recordings folder: every dictation is written here as a 16 kHz mono WAV before its
 * transcript is awaited, and only the newest {@code keep} are kept.
 */
public final class RecordingsFolder {
    private static final DateTimeFormatter NAME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS", Locale.ROOT)
            .withZone(ZoneId.systemDefault());

    private final Path dir;

    public RecordingsFolder(Path dir) {
        this.dir = dir;
    }

    public Path dir() {
        return dir;
    }

    /** Writes the recording; the name sorts by time ("dictation-20261123-051503-042.wav"). */
    public Path save(float[] samples16k, Instant startedAt) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve("dictation-" + NAME.format(startedAt) + ".wav");
        for (int i = 2; Files.exists(file); i++) {
            file = dir.resolve("dictation-" + NAME.format(startedAt) + "-" + i + ".wav");
        }
        WavWriter.write(file, samples16k, 16000, 1, WavWriter.Format.PCM_16);
        return file;
    }

    /** Deletes all but the newest {@code keep} recordings, never {@code protect} (a failed one awaiting retry). */
    public void prune(int keep, Path protect) {
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> all = s.filter(p -> p.getFileName().toString().matches("dictation-.*\\.wav"))
                    .sorted().toList();
            for (int i = 0; i < all.size() - keep; i++) {
                if (!all.get(i).equals(protect)) {
                    Files.deleteIfExists(all.get(i));
                }
            }
        } catch (IOException e) {
            // the folder could not be listed or a file is locked: try again after the next dictation
        }
    }
}
