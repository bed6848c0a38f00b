package dev.dictum.app.dictation;

import dev.dictum.app.os.FocusTracker;
import dev.dictum.app.os.KeyboardState;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.app.engine.EngineManager;
import dev.dictum.app.history.HistoryEntry;
import dev.dictum.app.history.HistoryStatus;
import dev.dictum.app.history.HistoryStore;
import dev.dictum.app.settings.Replacement;
import dev.dictum.app.settings.Settings;
import dev.dictum.app.testing.ToyEngine;
import dev.dictum.audio.AudioInput;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the loop does after the engine, with the real toy model: the user's replacements reach the
 * inserted text while the history keeps both texts, and a recording that cannot be saved (the disk
 * full) still inserts its text and keeps its history row, marked "audio not saved".
 */
class DictationAfterEngineTest {
    static final Path TESTDATA = Path.of(System.getProperty("dictum.testdata"));
    static final String SAID = "Note to self, send the final version to Sophie right now.";
    static EngineManager engine;

    @TempDir
    Path dir;

    final DictationControllerTest.FakeMic mic = new DictationControllerTest.FakeMic();
    final List<String> inserted = new CopyOnWriteArrayList<>();
    final List<String> notices = new CopyOnWriteArrayList<>();
    HistoryStore history;
    DictationController controller;

    @BeforeAll
    static void load() throws InterruptedException {
        engine = ToyEngine.load();
    }

    @AfterAll
    static void unload() {
        engine.close();
    }

    @AfterEach
    void close() {
        controller.close();
        history.close();
    }

    private void dictate(Settings s, RecordingsFolder recordings) throws Exception {
        history = HistoryStore.open(dir.resolve("history.db"));
        TextOutput out = (text, ins, enter) -> {
            inserted.add(text);
            return System.nanoTime();
        };
        controller = new DictationController(new DictationController.Parts(() -> s, mic, engine, out,
                FocusTracker.NONE, KeyboardState.NONE, recordings, () -> history, (kind, message) -> notices.add(message)));
        float[] voice = AudioInput.readMono16k(TESTDATA.resolve("data/toy-en-samples/sample_01.wav"));
        float[] withPauses = new float[voice.length + 24000];
        System.arraycopy(voice, 0, withPauses, 8000, voice.length);
        assertThat(controller.start()).isTrue();
        mic.play(withPauses);
        controller.stop(false);
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (controller.status().state() != DictationState.IDLE && System.nanoTime() < until) {
            Thread.sleep(10);
        }
    }

    @Test
    void replacementsAndVoiceCommandsShapeTheInsertedTextAndTheHistoryKeepsWhatWasHeard() throws Exception {
        Settings s = Settings.defaults().with(Settings.defaults().insertion().withReplacements(List.of(
                new Replacement("Sophie", "Sofia", true), new Replacement("right now", "today", true))));
        dictate(s, new RecordingsFolder(dir.resolve("rec")));
        assertThat(inserted).containsExactly("Note to self, send the final version to Sofia today.");
        HistoryEntry e = history.recent(1, 0).getFirst();
        assertThat(e.text()).isEqualTo("Note to self, send the final version to Sofia today.");
        assertThat(e.rawText()).isEqualTo(SAID);
        assertThat(e.replaced()).isTrue();
    }

    @Test
    void aRecordingThatCannotBeSavedStillInsertsAndKeepsItsHistoryRow() throws Exception {
        Path notAFolder = Files.writeString(dir.resolve("rec"), "a file where the folder should be");
        dictate(Settings.defaults(), new RecordingsFolder(notAFolder));
        assertThat(inserted).containsExactly(SAID);
        assertThat(notices).anyMatch(n -> n.startsWith("The recording was not saved (") && n.endsWith("the text is still inserted."));
        HistoryEntry e = history.recent(1, 0).getFirst();
        assertThat(e.status()).isEqualTo(HistoryStatus.OK);
        assertThat(e.text()).isEqualTo(SAID);
        assertThat(e.wavPath()).isNull();
        assertThat(e.error()).isEqualTo("audio not saved");
    }
}
