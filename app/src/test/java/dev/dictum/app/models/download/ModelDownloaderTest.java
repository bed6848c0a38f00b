package dev.dictum.app.models.download;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.dictum.app.models.catalog.CatalogFile;
import dev.dictum.app.models.catalog.CatalogVariant;
import dev.dictum.app.models.ModelFormat;
import dev.dictum.app.models.download.DownloadFailure.Reason;
import java.io.IOException;
import java.io.OutputStream;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Model downloads against {@link LocalHub} on 127.0.0.1: resume, verification, and every failure. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ModelDownloaderTest {

    static final String REPO = "ggerganov/whisper.cpp";
    static final int MIB = 1 << 20;

    @TempDir
    Path models;
    LocalHub hub;
    ModelDownloader downloader;

    @BeforeEach
    void start() throws IOException {
        hub = new LocalHub();
        downloader = downloader(PartWriter.FILES);
    }

    @AfterEach
    void stop() {
        downloader.close();
        hub.close();
    }

    ModelDownloader downloader(PartWriter writer) {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NORMAL).build();
        return new ModelDownloader(client, hub.base(),
                new FileFetcher.Options(4, Duration.ofMillis(10), Duration.ofSeconds(5)), writer);
    }

    static byte[] random(int bytes, long seed) {
        byte[] b = new byte[bytes];
        new Random(seed).nextBytes(b);
        return b;
    }

    static CatalogVariant ggml(String name, long approx, String sha1) {
        return new CatalogVariant("test/" + name, ModelFormat.GGML, "f16", REPO, "main", name,
                List.of(new CatalogFile(name, approx, sha1, null, false)));
    }

    InstalledModel await(DownloadTask task) throws Exception {
        return task.result().get(50, TimeUnit.SECONDS);
    }

    static DownloadFailure failureOf(DownloadTask task) {
        Throwable t = catchThrowable(() -> task.result().get(50, TimeUnit.SECONDS));
        assertThat(t).isInstanceOf(ExecutionException.class);
        assertThat(t.getCause()).isInstanceOf(DownloadFailure.class);
        return (DownloadFailure) t.getCause();
    }

    /** Nothing under the models folder: no model, no part, no staging folder. */
    void assertNothingLeft() throws IOException {
        try (Stream<Path> all = Files.walk(models)) {
            assertThat(all.filter(p -> !p.equals(models)).toList()).isEmpty();
        }
    }

    void waitUntil(DownloadTask task, long bytes) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (task.progress().bytesDone() < bytes && !task.result().isDone() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    @Test
    void downloadsVerifiesAgainstTheHubsSha256AndInstallsInPlace() throws Exception {
        byte[] content = random(3 * MIB, 1);
        hub.host(REPO, "ggml-a.bin", content);
        InstalledModel m = await(downloader.start(ggml("ggml-a.bin", 3 * MIB, null), models, p -> { }));
        assertThat(m.path()).isEqualTo(models.resolve("ggml-a.bin").toAbsolutePath());
        assertThat(Files.readAllBytes(m.path())).isEqualTo(content);
        assertThat(m.verification()).containsEntry("ggml-a.bin", Verification.HUB_SHA256);
        assertThat(models.resolve(ModelDownloader.STAGING)).doesNotExist();
    }

    @Test
    void checksThePublishedSha1WhenTheHubStatesNoHash() throws Exception {
        byte[] content = random(2 * MIB, 2);
        hub.host(REPO, "ggml-b.bin", content).publishHash = false;
        InstalledModel m = await(downloader.start(ggml("ggml-b.bin", 2 * MIB, LocalHub.sha1(content)), models, p -> { }));
        assertThat(m.verification()).containsEntry("ggml-b.bin", Verification.PUBLISHED_SHA1);
    }

    @Test
    void folderModelMovesInWholeWithGitHashedSmallFilesAndSkipsMissingOptionalOnes() throws Exception {
        byte[] config = "{\"d_model\": 384}".getBytes();
        byte[] weights = random(MIB, 3);
        hub.host("openai/whisper-x", "config.json", config).lfs = false;
        hub.host("openai/whisper-x", "model.safetensors", weights);
        CatalogVariant v = new CatalogVariant("x/hf", ModelFormat.HUGGING_FACE, "f32", "openai/whisper-x", "main",
                "whisper-x", List.of(new CatalogFile("config.json", 100, null, null, false),
                        new CatalogFile("model.safetensors", MIB, null, null, false),
                        new CatalogFile("merges.txt", 100, null, null, true)));
        InstalledModel m = await(downloader.start(v, models, p -> { }));
        Path dir = models.resolve("whisper-x");
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted().toList())
                    .containsExactly("config.json", "model.safetensors");
        }
        assertThat(Files.readAllBytes(dir.resolve("model.safetensors"))).isEqualTo(weights);
        assertThat(m.verification()).containsEntry("config.json", Verification.HUB_GIT_SHA1)
                .containsEntry("model.safetensors", Verification.HUB_SHA256);
        assertThat(models.resolve(ModelDownloader.STAGING)).doesNotExist();
    }

    @Test
    void resumesWithARangeRequestAfterTheConnectionDropsMidFile() throws Exception {
        byte[] content = random(4 * MIB, 4);
        LocalHub.Hosted h = hub.host(REPO, "ggml-c.bin", content);
        h.dropAfter = 1_500_000;
        h.dropTimes.set(1);
        InstalledModel m = await(downloader.start(ggml("ggml-c.bin", 4 * MIB, null), models, p -> { }));
        assertThat(Files.readAllBytes(m.path())).isEqualTo(content);
        List<String> ranges = hub.rangesFor("ggml-c.bin");
        assertThat(ranges).hasSize(2);
        assertThat(ranges.get(0)).isEmpty();
        assertThat(ranges.get(1)).matches("bytes=\\d+- if-range=\"v1\"");
        long resumedAt = Long.parseLong(ranges.get(1).substring(6, ranges.get(1).indexOf('-')));
        assertThat(resumedAt).isPositive().isLessThanOrEqualTo(1_500_000);
        assertThat(hub.bytesServed.get()).isLessThan(content.length + 1_500_001L);
    }

    @Test
    void cancelKeepsThePartAndTheNextStartResumesIt() throws Exception {
        byte[] content = random(4 * MIB, 5);
        LocalHub.Hosted h = hub.host(REPO, "ggml-d.bin", content);
        h.throttle = 4 * MIB;
        CatalogVariant v = ggml("ggml-d.bin", 4 * MIB, null);
        DownloadTask first = downloader.start(v, models, p -> { });
        waitUntil(first, MIB);
        first.cancel();
        DownloadFailure f = failureOf(first);
        assertThat(f.reason()).isEqualTo(Reason.CANCELLED);
        assertThat(f.resumable()).isTrue();
        assertThat(models.resolve("ggml-d.bin")).doesNotExist();
        long kept = ModelDownloader.partialBytes(v, models);
        assertThat(kept).isGreaterThanOrEqualTo(MIB).isLessThan(content.length);

        h.throttle = 0;
        List<DownloadProgress> seen = new CopyOnWriteArrayList<>();
        InstalledModel m = await(downloader.start(v, models, seen::add));
        assertThat(Files.readAllBytes(m.path())).isEqualTo(content);
        // The second start asked only for the missing bytes, guarded by the first answer's ETag.
        assertThat(hub.rangesFor("ggml-d.bin")).hasSize(2);
        assertThat(hub.rangesFor("ggml-d.bin").getLast()).isEqualTo("bytes=" + kept + "- if-range=\"v1\"");
        assertThat(seen.getFirst().bytesDone()).isLessThanOrEqualTo(kept);
        assertThat(seen.getLast().bytesDone()).isEqualTo(content.length);
    }

    @Test
    void aFileChangedOnTheServerSinceTheCancelIsDownloadedAfresh() throws Exception {
        byte[] oldContent = random(3 * MIB, 6);
        byte[] newContent = random(3 * MIB, 7);
        LocalHub.Hosted h = hub.host(REPO, "ggml-e.bin", oldContent);
        h.throttle = 4 * MIB;
        CatalogVariant v = ggml("ggml-e.bin", 3 * MIB, null);
        DownloadTask first = downloader.start(v, models, p -> { });
        waitUntil(first, MIB);
        first.cancel();
        assertThat(failureOf(first).reason()).isEqualTo(Reason.CANCELLED);
        h.replace(newContent, "v2");
        h.throttle = 0;
        InstalledModel m = await(downloader.start(v, models, p -> { }));
        assertThat(Files.readAllBytes(m.path())).isEqualTo(newContent);
    }

    @Test
    void aWrongChecksumFailsClearlyAndLeavesNothing() throws Exception {
        byte[] content = random(2 * MIB, 8);
        hub.host(REPO, "ggml-f.bin", content).publishedSha256 = LocalHub.sha256(random(10, 9));
        DownloadFailure f = failureOf(downloader.start(ggml("ggml-f.bin", 2 * MIB, null), models, p -> { }));
        assertThat(f.reason()).isEqualTo(Reason.CHECKSUM);
        assertThat(f.getMessage()).contains("ggml-f.bin: SHA-256 " + LocalHub.sha256(content))
                .contains("does not match the published").contains("discarded").doesNotContain("\n");
        assertNothingLeft();
    }

    @Test
    void aWrongPublishedSha1FailsToo() throws Exception {
        byte[] content = random(2 * MIB, 10);
        hub.host(REPO, "ggml-g.bin", content).publishHash = false;
        DownloadFailure f = failureOf(downloader.start(ggml("ggml-g.bin", 2 * MIB, LocalHub.sha1(new byte[1])), models, p -> { }));
        assertThat(f.reason()).isEqualTo(Reason.CHECKSUM);
        assertThat(f.getMessage()).contains("SHA-1").contains("does not match");
        assertNothingLeft();
    }

    @Test
    void aServerAnnouncingMoreBytesThanItSendsIsCorrectedByItsRangeAnswersAndTheHash() throws Exception {
        byte[] content = random(2 * MIB, 11);
        hub.host(REPO, "ggml-h.bin", content).announcedLength = content.length + 100_000;
        InstalledModel m = await(downloader.start(ggml("ggml-h.bin", 2 * MIB, null), models, p -> { }));
        // The full answer ends early against its Content-Length; the resumed range answer states the
        // true size, and the bytes must hash to the published SHA-256.
        assertThat(Files.readAllBytes(m.path())).isEqualTo(content);
        assertThat(m.verification()).containsEntry("ggml-h.bin", Verification.HUB_SHA256);
        assertThat(hub.rangesFor("ggml-h.bin")).hasSize(2);
    }

    @Test
    void keepsResumingWhileEveryAttemptMakesProgress() throws Exception {
        byte[] content = random(MIB, 19);
        LocalHub.Hosted h = hub.host(REPO, "ggml-p.bin", content);
        h.dropAfter = 300_000; // every answer, full or ranged, breaks off after 300 kB
        h.dropTimes.set(Integer.MAX_VALUE);
        InstalledModel m = await(downloader.start(ggml("ggml-p.bin", MIB, null), models, p -> { }));
        assertThat(Files.readAllBytes(m.path())).isEqualTo(content);
        assertThat(hub.rangesFor("ggml-p.bin")).hasSizeGreaterThanOrEqualTo(4);
    }

    @Test
    void givesUpWhenRetriesMakeNoProgressKeepsThePartAndResumesLater() throws Exception {
        byte[] content = random(MIB, 20);
        LocalHub.Hosted h = hub.host(REPO, "ggml-q.bin", content);
        h.dropAfter = 300_000;
        h.dropTimes.set(1);
        h.dropRangedAfter = 0; // the server then breaks every resumed answer before its first byte
        CatalogVariant v = ggml("ggml-q.bin", MIB, null);
        DownloadFailure f = failureOf(downloader.start(v, models, p -> { }));
        assertThat(f.reason()).isEqualTo(Reason.NETWORK);
        assertThat(f.resumable()).isTrue();
        assertThat(f.getMessage()).contains("ggml-q.bin").contains("attempts").contains("start again to resume");
        long kept = ModelDownloader.partialBytes(v, models);
        assertThat(kept).isBetween(1L, 300_000L);
        assertThat(models.resolve("ggml-q.bin")).doesNotExist();

        h.dropRangedAfter = -1;
        InstalledModel m = await(downloader.start(v, models, p -> { }));
        assertThat(Files.readAllBytes(m.path())).isEqualTo(content);
        assertThat(hub.rangesFor("ggml-q.bin").getLast()).startsWith("bytes=" + kept + "-");
    }

    @Test
    void aServerAnnouncingFewerBytesThanTheFileFailsTheHashCheck() throws Exception {
        byte[] content = random(2 * MIB, 12);
        LocalHub.Hosted h = hub.host(REPO, "ggml-i.bin", content);
        h.announcedLength = content.length - 100_000;
        h.publishSize = false;
        DownloadFailure f = failureOf(downloader.start(ggml("ggml-i.bin", 2 * MIB, null), models, p -> { }));
        assertThat(f.reason()).isEqualTo(Reason.CHECKSUM);
        assertNothingLeft();
    }

    @Test
    void aShortFileWithNoPublishedHashFailsTheSizeCheck() throws Exception {
        byte[] content = random(2 * MIB, 13);
        LocalHub.Hosted h = hub.host(REPO, "ggml-j.bin", content);
        h.announcedLength = MIB;
        h.publishHash = false;
        h.publishSize = false;
        DownloadFailure f = failureOf(downloader.start(ggml("ggml-j.bin", 2 * MIB, null), models, p -> { }));
        assertThat(f.reason()).isEqualTo(Reason.SIZE);
        assertThat(f.getMessage()).contains("expected about").contains("no hash was published");
        assertNothingLeft();
    }

    @Test
    void aDiskThatFillsDuringTheDownloadLeavesNothingAndSaysSo() throws Exception {
        byte[] content = random(3 * MIB, 14);
        hub.host(REPO, "ggml-k.bin", content);
        // A disk with 1 MiB left: every write past that fails as the OS reports it.
        PartWriter fillsUp = (part, append) -> new OutputStream() {
            final OutputStream file = PartWriter.FILES.open(part, append);

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                if (Files.size(part) + len > MIB) {
                    throw new IOException("No space left on device");
                }
                file.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
                file.close();
            }
        };
        try (ModelDownloader small = downloader(fillsUp)) {
            DownloadFailure f = failureOf(small.start(ggml("ggml-k.bin", 3 * MIB, null), models, p -> { }));
            assertThat(f.reason()).isEqualTo(Reason.DISK_FULL);
            assertThat(f.getMessage()).contains("disk is full").contains("partial download was removed");
        }
        assertNothingLeft();
    }

    @Test
    void twoModelsDownloadAtOnceAndTheSameModelTwiceIsRefused() throws Exception {
        byte[] a = random(3 * MIB, 15);
        byte[] b = random(3 * MIB, 16);
        hub.host(REPO, "ggml-l.bin", a).throttle = 6 * MIB;
        hub.host(REPO, "ggml-m.bin", b).throttle = 6 * MIB;
        CatalogVariant va = ggml("ggml-l.bin", 3 * MIB, null);
        DownloadTask ta = downloader.start(va, models, p -> { });
        DownloadTask tb = downloader.start(ggml("ggml-m.bin", 3 * MIB, null), models, p -> { });
        assertThatThrownBy(() -> downloader.start(va, models, p -> { }))
                .isInstanceOf(DownloadFailure.class).hasMessageContaining("already downloading")
                .extracting(e -> ((DownloadFailure) e).reason()).isEqualTo(Reason.CONFLICT);
        assertThat(Files.readAllBytes(await(ta).path())).isEqualTo(a);
        assertThat(Files.readAllBytes(await(tb).path())).isEqualTo(b);
        assertThat(hub.maxActive.get()).isGreaterThanOrEqualTo(2);
        assertThatThrownBy(() -> downloader.start(va, models, p -> { }))
                .hasMessageContaining("already installed");
    }

    @Test
    void progressReportsBytesSpeedAndTimeLeft() throws Exception {
        byte[] content = random(3 * MIB, 17);
        hub.host(REPO, "ggml-n.bin", content).throttle = 4 * MIB;
        List<DownloadProgress> seen = new CopyOnWriteArrayList<>();
        await(downloader.start(ggml("ggml-n.bin", 2 * MIB, null), models, seen::add));
        assertThat(seen).extracting(DownloadProgress::bytesDone).isSorted();
        assertThat(seen.getLast().bytesDone()).isEqualTo(content.length);
        assertThat(seen.getLast().bytesTotal()).isEqualTo(content.length);
        DownloadProgress mid = seen.stream().filter(p -> p.remaining() != null && p.fraction() < 0.9).findFirst().orElseThrow();
        // 4 MiB/s from the throttled server: the measured rate is in that neighbourhood.
        assertThat(mid.bytesPerSecond()).isBetween(1.0 * MIB, 12.0 * MIB);
        assertThat(mid.remaining()).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aMissingFileIsAClearHttpError() throws Exception {
        DownloadFailure f = failureOf(downloader.start(ggml("ggml-missing.bin", MIB, null), models, p -> { }));
        assertThat(f.reason()).isEqualTo(Reason.HTTP_STATUS);
        assertThat(f.getMessage()).contains("ggml-missing.bin").contains("HTTP 404");
    }

    @Test
    void aStalledServerIsRetriedAndThenReported() throws Exception {
        byte[] content = random(MIB, 18);
        LocalHub.Hosted h = hub.host(REPO, "ggml-o.bin", content);
        h.throttle = 1; // one byte a second: the watchdog sees no progress
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NORMAL).build();
        try (ModelDownloader impatient = new ModelDownloader(client, hub.base(),
                new FileFetcher.Options(2, Duration.ofMillis(10), Duration.ofMillis(1500)), PartWriter.FILES)) {
            DownloadFailure f = failureOf(impatient.start(ggml("ggml-o.bin", MIB, null), models, p -> { }));
            assertThat(f.reason()).isEqualTo(Reason.NETWORK);
            assertThat(f.getMessage()).contains("no data for 1 s").contains("resume");
        }
    }
}
