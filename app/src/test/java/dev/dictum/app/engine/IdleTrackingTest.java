package dev.dictum.app.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.app.dictation.Dictation;
import dev.dictum.app.settings.Settings;
import dev.dictum.gpu.select.Backends;
import dev.dictum.whisper.session.WhisperEngine;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The idle trim frees the encoder's scratch only while no session is open: the engine must count a
 * session as open from its start until it is finished or cancelled (once, however it ends).
 */
class IdleTrackingTest {
    private static final Path TOY = Path.of(System.getProperty("dictum.testdata"), "models", "toy-en", "ggml-toy-en.bin");

    @Test
    void aSessionIsOpenFromStartUntilItEndsAndCountsOnce() throws Exception {
        try (WhisperEngine engine = WhisperEngine.load(TOY, Backends.open("cpu"))) {
            WhisperSpeechEngine e = new WhisperSpeechEngine(engine, "toy-en", "cpu",
                    () -> Settings.defaults().transcription());
            assertThat(e.idleNanos()).isNotNegative();
            Dictation a = e.start();
            Dictation b = e.start();
            assertThat(e.idleNanos()).as("two open").isEqualTo(-1);
            a.cancel();
            a.cancel(); // a second cancel must not count again
            assertThat(e.idleNanos()).as("one still open").isEqualTo(-1);
            long before = e.lastEndedNanos();
            b.feed(new float[16000]);
            b.finish();
            assertThat(e.idleNanos()).as("none open").isNotNegative();
            assertThat(e.lastEndedNanos()).isGreaterThan(before);
            b.cancel(); // after finish: still counted once
            assertThat(e.idleNanos()).isNotNegative();
            Dictation c = e.start();
            assertThat(e.idleNanos()).isEqualTo(-1);
            c.cancel();
            assertThat(e.idleNanos()).isNotNegative();
        }
    }
}
