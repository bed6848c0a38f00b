package dev.dictum.app.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.app.dictation.Dictation;
import dev.dictum.app.dictation.Transcript;
import dev.dictum.app.settings.Settings;
import dev.dictum.gpu.select.Backends;
import dev.dictum.whisper.session.WhisperEngine;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Warm-up says a sentence, fed as a dictation that ends in quiet arrives (pieces, a pause with its tail,
 * the tail), so the decoder runs its tokens and the text comes from the pass at the pause: what the
 * first real dictation then finds compiled.
 */
class WarmUpAudioTest {
    private static final Path TOY = Path.of(System.getProperty("dictum.testdata"), "models", "toy-en", "ggml-toy-en.bin");

    @Test
    void warmUpSaysASentenceThatIsMadeAtThePause() throws Exception {
        float[] audio = WarmUpAudio.speech();
        assertThat(audio.length).as("the packaged clip, not the 2 s tone").isBetween(WarmUpAudio.RATE * 5 / 2,
                WarmUpAudio.RATE * 4);
        try (WhisperEngine engine = WhisperEngine.load(TOY, Backends.open("cpu"))) {
            WhisperSpeechEngine e = new WhisperSpeechEngine(engine, "toy-en", "cpu",
                    () -> Settings.defaults().transcription());
            Dictation d = e.start();
            WarmUpAudio.feedAsSpoken(d, audio);
            Transcript t = d.finish();
            assertThat(t.text()).isEqualTo("Tell Mark that I will be 9 minutes late.");
            assertThat(t.speculative()).as("made at the pause").isTrue();
        }
    }
}
