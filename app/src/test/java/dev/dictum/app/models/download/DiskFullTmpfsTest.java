package dev.dictum.app.models.download;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.app.models.download.DownloadFailure.Reason;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real full disk: a 2 MiB tmpfs mounted for the test (needs root with mount rights; skipped with the
 * reason otherwise — {@link ModelDownloaderTest} covers the same path through the write seam).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DiskFullTmpfsTest {

    static final int MIB = 1 << 20;

    @TempDir
    Path mountPoint;
    boolean mounted;
    LocalHub hub;

    @BeforeEach
    void mount() throws Exception {
        dev.dictum.app.testing.Tmpfs.mount(mountPoint, "2m", "dictum-test");
        mounted = true;
        hub = new LocalHub();
    }

    @AfterEach
    void unmount() throws Exception {
        if (hub != null) {
            hub.close();
        }
        if (mounted) {
            dev.dictum.app.testing.Tmpfs.unmount(mountPoint);
        }
    }

    ModelDownloader downloader() {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NORMAL).build();
        return new ModelDownloader(client, hub.base(),
                new FileFetcher.Options(3, Duration.ofMillis(10), Duration.ofSeconds(5)), PartWriter.FILES);
    }

    @Test
    void theDiskFillingMidDownloadRemovesThePartAndSaysTheDiskIsFull() throws Exception {
        byte[] content = ModelDownloaderTest.random(3 * MIB, 21);
        hub.host(ModelDownloaderTest.REPO, "ggml-big.bin", content);
        // The catalog underestimates the size, so the check before starting passes and the disk fills mid-file.
        try (ModelDownloader d = downloader()) {
            DownloadTask t = d.start(ModelDownloaderTest.ggml("ggml-big.bin", 100_000, null), mountPoint, p -> { });
            DownloadFailure f = ModelDownloaderTest.failureOf(t);
            assertThat(f.reason()).as(f.getMessage()).isEqualTo(Reason.DISK_FULL);
            assertThat(f.getMessage()).contains("disk is full").contains("removed").doesNotContain("\n");
        }
        assertEmpty();
        assertThat(Files.getFileStore(mountPoint).getUsableSpace()).isGreaterThan(MIB);
    }

    @Test
    void aModelLargerThanTheFreeSpaceIsRefusedBeforeAnyByteIsFetched() throws Exception {
        hub.host(ModelDownloaderTest.REPO, "ggml-huge.bin", new byte[10]);
        try (ModelDownloader d = downloader()) {
            DownloadFailure f = org.assertj.core.api.Assertions.catchThrowableOfType(DownloadFailure.class,
                    () -> d.start(ModelDownloaderTest.ggml("ggml-huge.bin", 3L * MIB, null), mountPoint, p -> { }));
            assertThat(f.reason()).isEqualTo(Reason.DISK_FULL);
            assertThat(f.getMessage()).contains("needs about 3.1 MB").contains("free");
        }
        assertThat(hub.requests).isEmpty();
        assertEmpty();
    }

    private void assertEmpty() throws IOException {
        try (Stream<Path> all = Files.walk(mountPoint)) {
            assertThat(all.filter(p -> !p.equals(mountPoint)).toList()).isEmpty();
        }
    }
}
