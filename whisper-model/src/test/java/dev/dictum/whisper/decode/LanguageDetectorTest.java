package dev.dictum.whisper.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.dictum.whisper.model.DecoderState;
import dev.dictum.whisper.model.EncodedAudio;
import dev.dictum.whisper.tokenizer.SpecialTokens;
import org.junit.jupiter.api.Test;

class LanguageDetectorTest {

    @Test
    void softmaxOverTheLanguageTokensOnlyPicksTheMostProbable() {
        FakeWhisper model = FakeWhisper.multilingual((c, out) -> {
            SpecialTokens sp = c.sp();
            out[sp.firstLanguage()] = 2f; // en
            out[sp.firstLanguage() + 2] = 3f; // de
            out[sp.firstLanguage() + 6] = 1f; // fr
            out[sp.noSpeech()] = 50f; // not a language: must not count
            out[sp.sot()] = 40f;
        });
        SpecialTokens sp = model.sp;
        DecoderState state = model.newDecoder(1);
        EncodedAudio audio = model.encode(new float[] {7});

        LanguageDetection d = LanguageDetector.detect(state, audio, model.vocabulary);

        assertThat(model.feeds).hasSize(1);
        assertThat(model.feeds.get(0)).isDeepEqualTo(new int[][] {{sp.sot()}});
        assertThat(d.language()).isEqualTo("de");
        assertThat(d.token()).isEqualTo(sp.firstLanguage() + 2);
        assertThat(d.probabilities()).hasSize(100);
        // 1e-6: the log-sum-exp takes its exponentials in float (relative error ~1e-7, LogitMathTest)
        assertThat(d.probabilities().values().stream().mapToDouble(Double::doubleValue).sum()).isCloseTo(1.0,
                within(1e-6));
        double z = Math.exp(2) + Math.exp(3) + Math.exp(1) + 97 * Math.exp(-30);
        assertThat(d.probabilities().get("de")).isCloseTo(Math.exp(3) / z, within(1e-6));
        assertThat(d.probabilities().get("en")).isCloseTo(Math.exp(2) / z, within(1e-6));
        assertThat(d.probabilities().keySet()).startsWith("en", "zh", "de").endsWith("yue");
    }

    @Test
    void englishOnlyModelsCannotDetect() {
        FakeWhisper model = FakeWhisper.english((c, out) -> { });
        assertThatThrownBy(() -> LanguageDetector.detect(model.newDecoder(1), model.encode(new float[1]),
                model.vocabulary)).isInstanceOf(IllegalArgumentException.class);
    }
}
