package dev.dictum.app.files;

import dev.dictum.app.testing.FileLog;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.dictum.app.dictation.RecordingsFolder;
import dev.dictum.app.history.HistoryEntry;
import dev.dictum.app.history.HistoryStatus;
import dev.dictum.app.history.HistoryStore;
import dev.dictum.app.launch.AppLogging;
import dev.dictum.app.settings.Settings;
import dev.dictum.app.settings.SettingsStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** Everything the app writes about the user (settings, history, logs, recordings) is owner-only, whatever the umask. */
class OwnerOnlyTest {
    @TempDir
    Path home;

    @BeforeEach
    void posixOnly() throws IOException {
        assumeThat(Files.getFileStore(home).supportsFileAttributeView("posix")).as("skipped: no POSIX modes here").isTrue();
    }

    @Test
    void everythingTheAppWritesIsOwnerOnly() throws Exception {
        AppDirs dirs = AppDirs.of(Map.of(), "Linux", home);
        // settings, and a broken one's backup
        SettingsStore store = new SettingsStore(dirs.settingsFile());
        store.save(Settings.defaults());
        Files.writeString(dirs.settingsFile(), "{ broken");
        assertThat(store.load().notice()).contains("broken-");
        // history in WAL mode: the -wal and -shm files appear on the first write
        try (HistoryStore h = HistoryStore.open(dirs.historyDatabase())) {
            h.add(new HistoryEntry(0, Instant.now(), 1000, "what I said", "en", "toy", "cpu", 1, 1, 1, 1, null,
                    HistoryStatus.OK, null));
            // a recording
            new RecordingsFolder(dirs.recordings()).save(new float[1600], Instant.now());
            // a model download (from a hub on 127.0.0.1): the folders Dictum creates for it
            try (var hub = new dev.dictum.app.models.download.LocalHub();
                 var downloader = new dev.dictum.app.models.download.ModelDownloader(hub.base())) {
                hub.host("ggerganov/whisper.cpp", "ggml-test.bin", new byte[4096]);
                var variant = new dev.dictum.app.models.catalog.CatalogVariant("test/ggml-test.bin",
                        dev.dictum.app.models.ModelFormat.GGML, "f16", "ggerganov/whisper.cpp", "main", "ggml-test.bin",
                        List.of(new dev.dictum.app.models.catalog.CatalogFile("ggml-test.bin", 4096, null, null, false)));
                downloader.start(variant, dirs.models(), p -> { }).result().get(30, java.util.concurrent.TimeUnit.SECONDS);
            }
            // the log
            Path log = AppLogging.configure(dirs.logs(), true);
            try {
                LoggerFactory.getLogger(OwnerOnlyTest.class).info("a line for the log");
                assertThat(Files.size(log)).isPositive();
                Map<String, String> modes = modes(home.resolve(".local/share/dictum"));
                modes.putAll(modes(home.resolve(".config/dictum")));
                assertThat(modes).containsKeys("history.db", "history.db-wal", "history.db-shm", "logs/dictum.log",
                        "settings.json");
                assertThat(modes.keySet()).anyMatch(k -> k.startsWith("recordings/dictation-"));
                assertThat(modes.keySet()).anyMatch(k -> k.startsWith("settings.json.broken-"));
                assertThat(modes).containsEntry("models/", "rwx------").containsKey("models/ggml-test.bin");
                // A downloaded model is not about the user: its file may keep the umask's mode, in a 0700 folder.
                modes.remove("models/ggml-test.bin");
                assertThat(modes).allSatisfy((name, mode) -> assertThat(mode).as(name)
                        .isEqualTo(name.endsWith("/") ? "rwx------" : "rw-------"));
            } finally {
                FileLog.stop();
            }
        }
    }

    @Test
    void filesWrittenBeforeAreTightenedAtStart() throws IOException {
        Path data = home.resolve("data");
        Files.createDirectories(data.resolve("recordings"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwxr-xr-x")));
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path wav = Files.writeString(data.resolve("recordings/dictation-1.wav"), "RIFF");
        Files.setPosixFilePermissions(wav, PosixFilePermissions.fromString("rw-r--r--"));
        Files.createSymbolicLink(data.resolve("elsewhere"), home.resolve("not-ours"));
        Files.writeString(home.resolve("not-ours"), "x");
        Files.setPosixFilePermissions(home.resolve("not-ours"), PosixFilePermissions.fromString("rw-r--r--"));

        OwnerOnly.tighten(data);

        assertThat(modes(data)).containsEntry("./", "rwx------").containsEntry("recordings/", "rwx------")
                .containsEntry("recordings/dictation-1.wav", "rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve("not-ours"))))
                .as("a link is not followed").isEqualTo("rw-r--r--");
    }

    /** Relative name ("logs/" for a folder) → mode, of everything under {@code root}, links excluded. */
    private static Map<String, String> modes(Path root) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            List<Path> all = s.filter(p -> !Files.isSymbolicLink(p)).toList();
            for (Path p : all) {
                String rel = root.relativize(p).toString();
                boolean dir = Files.isDirectory(p);
                String name = rel.isEmpty() ? "./" : dir ? rel + "/" : rel;
                out.put(name, PosixFilePermissions.toString(Files.getPosixFilePermissions(p)));
            }
        }
        return out;
    }
}
