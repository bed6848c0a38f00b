package dev.dictum.app.dictation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dictum.app.testing.Tmpfs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real full disk (a 64 KiB tmpfs; needs root with mount rights, skipped with the reason
 * otherwise): a recording that does not fit leaves no 0-byte or partial WAV behind.
 */
class RecordingsDiskFullTest {
    @TempDir
    Path mountPoint;
    boolean mounted;

    @BeforeEach
    void mount() throws Exception {
        Tmpfs.mount(mountPoint, "64k", "dictum-rec-test");
        mounted = true;
    }

    @AfterEach
    void unmount() throws Exception {
        if (mounted) {
            Tmpfs.unmount(mountPoint);
        }
    }

    @Test
    void aRecordingThatDoesNotFitLeavesNothingBehind() throws IOException {
        RecordingsFolder folder = new RecordingsFolder(mountPoint.resolve("recordings"));
        Path small = folder.save(new float[8000], Instant.ofEpochMilli(1_000)); // 16 KB: fits
        assertThatThrownBy(() -> folder.save(new float[16000 * 5], Instant.ofEpochMilli(2_000))) // 160 KB: does not
                .isInstanceOf(IOException.class)
                .satisfies(e -> assertThat(RecordingsFolder.reason((IOException) e)).isEqualTo("the disk is full"));
        try (Stream<Path> s = Files.list(folder.dir())) {
            assertThat(s.toList()).containsExactly(small);
        }
        assertThat(Files.size(small)).isEqualTo(44 + 16000);
    }
}
