package dev.dictum.app.dictation;

import dev.dictum.app.os.FocusTracker;
import dev.dictum.app.os.KeyboardState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.dictum.app.engine.EngineManager;
import dev.dictum.app.history.HistoryStore;
import dev.dictum.app.files.AppDirs;
import dev.dictum.app.launch.AppLogging;
import dev.dictum.app.testing.FileLog;
import dev.dictum.app.files.SingleInstance;
import dev.dictum.app.settings.Settings;
import dev.dictum.app.settings.SettingsStore;
import dev.dictum.audio.AudioInput;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Issue 23 item 6: after a whole session — the single-instance lock and a second start's poke, the
 * log, a dictation, a cancel, a lost microphone and its retry, a model switch and a settings save —
 * no file or folder under the data and config folders is readable, writable or enterable by group
 * or others, whatever the umask left them (downloaded model files excepted, see OwnerOnlyTest).
 */
class OwnerOnlySessionTest {
    static final Path TESTDATA = Path.of(System.getProperty("dictum.testdata"));
    static final Set<PosixFilePermission> OTHERS = Set.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    @TempDir
    Path home;

    @Test
    void noFileOfAWholeSessionIsOpenToOthers() throws Exception {
        assumeThat(Files.getFileStore(home).supportsFileAttributeView("posix")).as("skipped: no POSIX modes here")
                .isTrue();
        AppDirs dirs = AppDirs.of(Map.of(), "Linux", home);
        List<String> inserted = new CopyOnWriteArrayList<>();
        DictationControllerTest.FakeMic mic = new DictationControllerTest.FakeMic();
        try (SingleInstance running = SingleInstance.acquire(dirs.data());
             EngineManager engines = new EngineManager(() -> Settings.defaults().transcription())) {
            assertThat(running).isNotNull();
            assertThat(SingleInstance.acquire(dirs.data())).as("a second start").isNull();
            SingleInstance.poke(dirs.data());
            AppLogging.configure(dirs.logs(), true);
            SettingsStore settings = new SettingsStore(dirs.settingsFile());
            settings.save(Settings.defaults());
            engines.load(TESTDATA.resolve("models/toy-en/ggml-toy-en.bin"), "toy-en", "cpu");
            assertThat(engines.await(120_000)).isNotNull();
            try (HistoryStore history = HistoryStore.open(dirs.historyDatabase());
                 DictationController c = new DictationController(new DictationController.Parts(
                         Settings::defaults, mic, engines, (text, s, enter) -> {
                             inserted.add(text);
                             return System.nanoTime();
                         }, FocusTracker.NONE, KeyboardState.NONE, new RecordingsFolder(dirs.recordings()), () -> history,
                         (kind, message) -> { }))) {
                float[] voice = AudioInput.readMono16k(TESTDATA.resolve("data/toy-en-samples/sample_01.wav"));
                float[] withQuiet = new float[voice.length + 16000];
                System.arraycopy(voice, 0, withQuiet, 4000, voice.length);
                c.start(); // a dictation
                mic.play(withQuiet);
                c.stop(false);
                awaitIdle(c);
                c.start(); // a cancel
                mic.play(withQuiet);
                c.cancel();
                awaitIdle(c);
                c.start(); // a lost microphone, then Retry
                mic.play(withQuiet);
                mic.sink.deviceLost("unplugged");
                awaitIdle(c);
                c.retryFailed();
                awaitIdle(c);
                assertThat(inserted).hasSize(2);
            }
            // a model switch, remembered in the settings once it works
            engines.load(TESTDATA.resolve("models/toy-multi/ggml-toy-multi-q8_0.bin"), "toy-multi", "cpu");
            assertThat(engines.await(120_000).modelName()).isEqualTo("toy-multi");
            settings.save(Settings.defaults());
            LoggerFactory.getLogger(OwnerOnlySessionTest.class).info("session over");
        } finally {
            FileLog.stop();
        }
        List<String> open = new ArrayList<>();
        int seen = 0;
        for (Path root : List.of(dirs.data(), dirs.config())) {
            try (Stream<Path> all = Files.walk(root)) {
                for (Path p : all.toList()) {
                    if (Files.isSymbolicLink(p) || p.startsWith(dirs.models())) {
                        continue;
                    }
                    seen++;
                    Set<PosixFilePermission> mode = Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS);
                    if (mode.stream().anyMatch(OTHERS::contains)) {
                        open.add(root.relativize(p) + " " + PosixFilePermissions.toString(mode));
                    }
                }
            }
        }
        assertThat(dirs.data().resolve("dictum.poke")).exists();
        assertThat(dirs.data().resolve("dictum.lock")).exists();
        assertThat(seen).as("files and folders walked").isGreaterThan(8);
        assertThat(open).as("open to group or others").isEmpty();
    }

    private static void awaitIdle(DictationController c) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (c.status().state() != DictationState.IDLE && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        assertThat(c.status().state()).isEqualTo(DictationState.IDLE);
    }
}
