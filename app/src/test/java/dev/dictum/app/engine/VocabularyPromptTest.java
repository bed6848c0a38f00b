package dev.dictum.app.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.app.settings.TranscriptionSettings;
import dev.dictum.gpu.select.Backends;
import dev.dictum.whisper.decode.DecodingOptions;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.session.WhisperEngine;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The vocabulary reaches the decoder as its initial prompt, token for token. (That the initial
 * prompt's tokens are what the decoder is primed with, before start-of-transcript and not part of
 * the text, is whisper-model's TranscriberTest.theInitialPromptPrimesTheFirstWindowButIsNotPartOfTheText.)
 */
class VocabularyPromptTest {
    private static final Path TOY = Path.of(System.getProperty("dictum.testdata"), "models", "toy-en", "ggml-toy-en.bin");

    @Test
    void termsAreSplitTrimmedAndDeduplicated() {
        TranscriptionSettings s = TranscriptionSettings.defaults().withVocabulary(" Dictum,Kubernetes\n\n Grüße , Dictum ");
        assertThat(s.vocabularyTerms()).containsExactly("Dictum", "Kubernetes", "Grüße");
        assertThat(s.decoderPrompt()).isEqualTo("Dictum, Kubernetes, Grüße.");
        assertThat(s.withInitialPrompt("Meeting notes about the release.").decoderPrompt())
                .isEqualTo("Meeting notes about the release. Dictum, Kubernetes, Grüße.");
        assertThat(TranscriptionSettings.defaults().decoderPrompt()).isNull();
    }

    @Test
    void theEngineOptionsCarryTheVocabularyAndItsTokensSpellItExactly() {
        try (WhisperEngine engine = WhisperEngine.load(TOY, Backends.open("cpu"))) {
            WhisperSpeechEngine dictation = new WhisperSpeechEngine(engine, "toy-en", "cpu",
                    TranscriptionSettings::defaults);
            TranscribeOptions o = dictation.options(TranscriptionSettings.defaults().withVocabulary("Dictum\nKubernetes, Grüße"));
            assertThat(o.initialPrompt()).isEqualTo("Dictum, Kubernetes, Grüße.");
            int[] tokens = DecodingOptions.encodeText(engine.codec(), o.initialPrompt());
            assertThat(tokens).isNotEmpty();
            assertThat(engine.codec().decode(tokens)).isEqualTo(" Dictum, Kubernetes, Grüße.");
            assertThat(dictation.options(TranscriptionSettings.defaults()).initialPrompt()).isNull();
        }
    }
}
