package dev.dictum.app.dictation;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.dictum.app.engine.EngineManager;
import dev.dictum.app.history.HistoryEntry;
import dev.dictum.app.history.HistoryStatus;
import dev.dictum.app.history.HistoryStore;
import dev.dictum.app.os.FocusTracker;
import dev.dictum.app.os.KeyboardState;
import dev.dictum.app.settings.Settings;
import dev.dictum.audio.AudioInput;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Start-up as {@code DesktopLauncher} runs it (issue 24 item 6): the hotkey goes live while the model
 * still loads and before its warm-up may start. A dictation pressed at once records from the press and
 * is transcribed exactly once the model has loaded, without waiting for warm-up, which it skips; with
 * no dictation, warm-up starts only when the start-up releases it. Real toy model, stand-in microphone.
 */
class DictationBeforeModelTest {
    static final Path TOY = DictationControllerTest.TESTDATA.resolve("models/toy-en/ggml-toy-en.bin");

    @TempDir
    Path dir;

    final ListAppender<ILoggingEvent> log = new ListAppender<>();
    final Logger engineLog = (Logger) LoggerFactory.getLogger(EngineManager.class);
    Level levelBefore;
    EngineManager engines;

    @BeforeEach
    void captureTheEngineLog() {
        levelBefore = engineLog.getLevel();
        engineLog.setLevel(Level.DEBUG);
        log.start();
        engineLog.addAppender(log);
        engines = new EngineManager(() -> Settings.defaults().transcription());
    }

    @AfterEach
    void close() {
        engines.close();
        engineLog.detachAppender(log);
        engineLog.setLevel(levelBefore);
    }

    private boolean logged(String part) {
        return log.list.stream().anyMatch(e -> e.getFormattedMessage().contains(part));
    }

    private void awaitLogged(String part, long seconds) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!logged(part) && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        assertThat(logged(part)).as("the log says \"%s\": %s", part, log.list).isTrue();
    }

    @Test
    void aDictationPressedWhileTheModelLoadsRecordsAtOnceAndIsTranscribedWhenTheModelHasLoaded() throws Exception {
        List<String> inserted = new CopyOnWriteArrayList<>();
        List<String> notices = new CopyOnWriteArrayList<>();
        DictationControllerTest.FakeMic mic = new DictationControllerTest.FakeMic();
        engines.holdWarmUp(); // as at start: never released in this test
        engines.load(TOY, "toy-en-early", "cpu"); // its own name: the log is shared by every EngineManager in this JVM
        try (HistoryStore history = HistoryStore.open(dir.resolve("history.db"));
             DictationController controller = new DictationController(new DictationController.Parts(Settings::defaults,
                     mic, engines, (text, s, enter) -> {
                         inserted.add(text);
                         return System.nanoTime();
                     }, FocusTracker.NONE, KeyboardState.NONE, new RecordingsFolder(dir.resolve("rec")), () -> history,
                     (kind, message) -> notices.add(message)))) {
            // loading, or loaded with its warm-up held (a warm JIT loads the toy model in well under the set-up below)
            assertThat(engines.state().phase()).isIn(EngineManager.Phase.LOADING, EngineManager.Phase.WARMING_UP);
            assertThat(controller.start()).as("the press records while the model loads: %s", notices).isTrue();
            assertThat(engines.ready()).as("no engine at the press").isNull();
            assertThat(mic.sink).as("the microphone feeds the recording from the press").isNotNull();
            float[] voice = AudioInput.readMono16k(DictationControllerTest.TESTDATA.resolve(
                    "data/toy-en-samples/sample_01.wav"));
            float[] withQuiet = new float[voice.length + 16000];
            System.arraycopy(voice, 0, withQuiet, 4000, voice.length);
            mic.play(withQuiet);
            controller.stop(false);
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while ((controller.status().state() != DictationState.IDLE || inserted.isEmpty()) && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            assertThat(inserted).containsExactly(DictationAfterEngineTest.SAID);
            HistoryEntry row = history.recent(1, 0).getFirst();
            assertThat(row.status()).isEqualTo(HistoryStatus.OK);
            assertThat(row.text()).isEqualTo(DictationAfterEngineTest.SAID);
        }
        assertThat(engines.state().phase()).isEqualTo(EngineManager.Phase.READY);
        assertThat(logged("model toy-en-early: warm-up skipped (a dictation needs the engine)")).as("%s", log.list).isTrue();
        assertThat(logged("warm-up dictation ")).as("no warm-up pass ran: %s", log.list).isFalse();
        assertThat(logged("cut short by a dictation")).isTrue();
    }

    @Test
    void warmUpWaitsUntilStartUpReleasesItAndThenRunsToTheEnd() throws Exception {
        engines.holdWarmUp();
        engines.load(TOY, "toy-en-held", "cpu"); // its own name: the log is shared by every EngineManager in this JVM
        awaitLogged("model toy-en-held loaded on", 60);
        Thread.sleep(500);
        assertThat(engines.state().phase()).isEqualTo(EngineManager.Phase.WARMING_UP);
        assertThat(logged("model toy-en-held: warm-up starts")).as("held: %s", log.list).isFalse();
        assertThat(engines.ready()).isNull();

        engines.releaseWarmUp();
        awaitLogged("Dictum ready: model toy-en-held", 120);
        assertThat(logged("model toy-en-held: warm-up starts after waiting ")).isTrue();
        assertThat(logged("warm-up dictation 1:")).as("warm-up ran once released: %s", log.list).isTrue();
        assertThat(logged("cut short")).isFalse();
        assertThat(engines.ready()).isNotNull();
    }
}
