package dev.dictum.whisper.decode;

import static dev.dictum.whisper.decode.ToyCodec.ALPHA;
import static dev.dictum.whisper.decode.ToyCodec.BRAVO;
import static dev.dictum.whisper.decode.ToyCodec.CHARLIE;
import static dev.dictum.whisper.decode.ToyCodec.DELTA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.dictum.whisper.tokenizer.SpecialTokens;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The fake's logits depend on the attempt (the count of decoder resets), standing in for a retry that goes better. */
class TemperatureFallbackTest {
    private static final SpecialTokens SP = SpecialTokens.forVocabSize(51864);
    private static final int EOT = SP.eot();

    private FakeWhisper model;

    private DecodingResult decode(FakeWhisper.Script script, DecodingOptions base, TranscribeOptions options) {
        model = FakeWhisper.english(script);
        return new TemperatureFallback(model, new ToyCodec(EOT)).decode(model.encode(new float[1]),
                model.newDecoder(4), base, options, new SplittableRandom(options.seed()));
    }

    private static DecodingOptions base() {
        return DecodingOptions.defaults().withWithoutTimestamps(true);
    }

    /** Attempt 0 says "alpha" 40 times (compression ratio ~7); later attempts say "bravo charlie". */
    private static final FakeWhisper.Script REPETITIVE_THEN_GOOD = (c, out) -> {
        int sampled = c.history().length - 2;
        if (sampled < 0) {
            return;
        }
        if (c.attempt() == 0) {
            out[sampled < 40 ? ALPHA : EOT] = 0f;
        } else {
            out[sampled == 0 ? BRAVO : sampled == 1 ? CHARLIE : EOT] = 0f;
        }
    };

    /** Attempt 0: two tokens at p = .3 each (avg logprob ln .3 = -1.2); later attempts: sure. */
    private static FakeWhisper.Script unsureThenSure(double noSpeech) {
        return (c, out) -> {
            if (c.atSot()) {
                Logits.probabilities(out, Map.of(SP.noSpeech(), noSpeech, 9, 1 - noSpeech));
                return;
            }
            int sampled = c.history().length - 2;
            if (c.attempt() == 0) {
                Logits.probabilities(out, Map.of(sampled == 0 ? ALPHA : EOT, 0.3, BRAVO, 0.25, CHARLIE, 0.25,
                        DELTA, 0.2));
            } else {
                out[sampled == 0 ? DELTA : EOT] = 0f;
            }
        };
    }

    @Test
    void repetitiveOutputFallsBackToTheNextTemperature() {
        DecodingResult r = decode(REPETITIVE_THEN_GOOD, base(), TranscribeOptions.defaults());
        assertThat(r.temperature()).isEqualTo(0.2);
        assertThat(r.tokens()).containsExactly(BRAVO, CHARLIE);
        assertThat(model.resetBatches).containsExactly(1, 1);
    }

    @Test
    void theRepetitiveResultItselfWouldHaveFailedOnCompressionOnly() {
        DecodingResult r = decode(REPETITIVE_THEN_GOOD, base(), TranscribeOptions.defaults().withTemperatures(0.0));
        assertThat(r.tokens()).hasSize(40);
        assertThat(r.compressionRatio()).isGreaterThan(2.4);
        assertThat(r.avgLogprob()).isGreaterThan(-1e-3);
    }

    @Test
    void lowAverageLogprobFallsBack() {
        DecodingResult r = decode(unsureThenSure(0.01), base(), TranscribeOptions.defaults());
        assertThat(r.temperature()).isEqualTo(0.2);
        assertThat(r.tokens()).containsExactly(DELTA);
        assertThat(model.resetBatches).hasSize(2);
    }

    @Test
    void likelySilenceStopsTheFallbackEvenWithALowLogprob() {
        DecodingResult r = decode(unsureThenSure(0.9), base(), TranscribeOptions.defaults());
        assertThat(r.temperature()).isZero();
        assertThat(r.tokens()).containsExactly(ALPHA);
        assertThat(r.avgLogprob()).isCloseTo(Math.log(0.3), within(1e-6));
        assertThat(r.noSpeechProb()).isCloseTo(0.9, within(1e-6));
        assertThat(model.resetBatches).hasSize(1);
    }

    @Test
    void withoutThresholdsTheFirstResultIsKept() {
        TranscribeOptions o = TranscribeOptions.defaults().withCompressionRatioThreshold(null).withLogprobThreshold(null);
        DecodingResult r = decode(REPETITIVE_THEN_GOOD, base(), o);
        assertThat(r.temperature()).isZero();
        assertThat(model.resetBatches).hasSize(1);
    }

    @Test
    void whenEveryTemperatureFailsTheLastResultIsReturned() {
        FakeWhisper.Script alwaysRepetitive = (c, out) -> out[c.history().length < 42 ? ALPHA : EOT] = 0f;
        DecodingResult r = decode(alwaysRepetitive, base(), TranscribeOptions.defaults());
        assertThat(r.temperature()).isEqualTo(1.0);
        assertThat(model.resetBatches).hasSize(6);
    }

    @Test
    void beamSearchAppliesAtZeroAndBestOfAboveZero() {
        DecodingResult r = decode(REPETITIVE_THEN_GOOD, base().withBeamSize(2).withPatience(1.0),
                TranscribeOptions.defaults());
        assertThat(r.temperature()).isEqualTo(0.2);
        assertThat(model.resetBatches).containsExactly(2, 1);

        DecodingResult s = decode(REPETITIVE_THEN_GOOD, base().withBestOf(3), TranscribeOptions.defaults());
        assertThat(s.temperature()).isEqualTo(0.2);
        assertThat(model.resetBatches).containsExactly(1, 3);
    }
}
