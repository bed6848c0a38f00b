package dev.dictum.whisper.decode;

import static dev.dictum.whisper.decode.ToyCodec.ALPHA;
import static dev.dictum.whisper.decode.ToyCodec.BRAVO;
import static dev.dictum.whisper.decode.ToyCodec.CHARLIE;
import static dev.dictum.whisper.decode.ToyCodec.DELTA;
import static dev.dictum.whisper.decode.ToyCodec.SPACE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.dictum.whisper.tokenizer.SpecialTokens;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GreedyDecodingTest {

    private static DecodingResult run(FakeWhisper model, DecodingOptions options) {
        return new DecodingTask(model, new ToyCodec(model.sp.eot()), options)
                .run(model.encode(new float[] {0}), model.newDecoder(options.groupSize()), null);
    }

    private static DecodingOptions noTimestamps() {
        return DecodingOptions.defaults().withWithoutTimestamps(true);
    }

    @Test
    void picksTheArgmaxAfterSuppressionAndBeginSuppressAppliesToTheFirstStepOnly() {
        SpecialTokens sp = SpecialTokens.forVocabSize(51864);
        int eot = sp.eot();
        FakeWhisper model = FakeWhisper.english(new Scripts.Tree(1)
                .sot(Map.of(sp.noSpeech(), 0.25, 7, 0.75))
                // eot and the space lead but are begin-suppressed
                .on(List.of(), Map.of(eot, 0.5, SPACE, 0.3, ALPHA, 0.15, BRAVO, 0.05))
                // token 1 is a non-speech symbol: suppressed at every step
                .on(List.of(ALPHA), Map.of(1, 0.6, CHARLIE, 0.3, eot, 0.1))
                // eot is allowed again now
                .on(List.of(ALPHA, CHARLIE), Map.of(eot, 0.7, DELTA, 0.3)));

        DecodingResult r = run(model, noTimestamps());

        assertThat(r.tokens()).containsExactly(ALPHA, CHARLIE);
        assertThat(r.text()).isEqualTo("alpha charlie");
        assertThat(r.language()).isEqualTo("en");
        // probabilities under the filtered distributions: .15/.2, .3/.4, then eot .7
        assertThat(r.tokenProbabilities()[0]).isCloseTo(0.75f, within(1e-6f));
        assertThat(r.tokenProbabilities()[1]).isCloseTo(0.75f, within(1e-6f));
        double sum = 2 * Math.log(0.75) + Math.log(0.7);
        assertThat(r.sumLogprob()).isCloseTo(sum, within(1e-6));
        assertThat(r.avgLogprob()).isCloseTo(sum / 3, within(1e-6));
        assertThat(r.noSpeechProb()).isCloseTo(0.25, within(1e-6));
        assertThat(r.temperature()).isZero();
        assertThat(r.compressionRatio()).isEqualTo(CompressionRatio.of("alpha charlie"));
        // [sot] alone first (no-speech there), then the rest of the prompt, then one token a step; eot is not fed
        assertThat(model.feeds).extracting(f -> f[0][0]).containsExactly(sp.sot(), sp.noTimestamps(), ALPHA, CHARLIE);
    }

    @Test
    void withoutSuppressBlankEotMayEndAtOnce() {
        SpecialTokens sp = SpecialTokens.forVocabSize(51864);
        FakeWhisper model = FakeWhisper.english(new Scripts.Tree(1)
                .on(List.of(), Map.of(sp.eot(), 0.5, ALPHA, 0.5 - 1e-3)));
        DecodingResult r = run(model, noTimestamps().withSuppressBlank(false));
        assertThat(r.tokens()).isEmpty();
        assertThat(r.text()).isEmpty();
        assertThat(r.avgLogprob()).isCloseTo(Math.log(0.5 / 0.999), within(1e-6));
    }

    @Test
    void stopsAfterSampleLenTokens() {
        FakeWhisper model = FakeWhisper.english((c, out) -> out[ALPHA] = 0f);
        DecodingResult r = run(model, noTimestamps().withSampleLen(5));
        assertThat(r.tokens()).containsExactly(ALPHA, ALPHA, ALPHA, ALPHA, ALPHA);
        assertThat(r.avgLogprob()).isCloseTo(r.sumLogprob() / 6, within(1e-12));
    }

    @Test
    void stopsBeforeOutgrowingTheTextContext() {
        FakeWhisper model = new FakeWhisper(51864, 10, (c, out) -> out[ALPHA] = 0f);
        // 2 initial tokens; the loop ends once the sequence is longer than n_text_ctx = 10
        DecodingResult r = run(model, noTimestamps().withSampleLen(100));
        assertThat(r.tokens()).hasSize(9);
        assertThat(model.feeds).hasSize(2 + 8);
    }

    @Test
    void multilingualPromptIsSotLanguageTaskAndTheLanguageIsDetectedWhenNotGiven() {
        SpecialTokens sp = SpecialTokens.forVocabSize(51866);
        int fr = sp.firstLanguage() + 6;
        FakeWhisper model = FakeWhisper.multilingual((c, out) -> {
            if (c.history().length == 1) {
                out[fr] = 5f; // the detection pass and the sot position of the decoding pass
            } else {
                out[c.history().length < 6 ? BRAVO : c.sp().eot()] = 0f;
            }
        });
        DecodingResult r = run(model, noTimestamps().withTask(Task.TRANSLATE));
        assertThat(r.language()).isEqualTo("fr");
        assertThat(r.languageProbabilities().get("fr")).isGreaterThan(0.99);
        assertThat(model.feeds.get(0)).isDeepEqualTo(new int[][] {{sp.sot()}}); // detection
        assertThat(model.feeds.get(1)).isDeepEqualTo(new int[][] {{sp.sot()}});
        assertThat(model.feeds.get(2)).isDeepEqualTo(new int[][] {{fr, sp.translate(), sp.noTimestamps()}});
        assertThat(r.tokens()).containsExactly(BRAVO, BRAVO);
    }

    @Test
    void promptGoesBeforeSotAndNoSpeechIsReadAtSot() {
        SpecialTokens sp = SpecialTokens.forVocabSize(51864);
        FakeWhisper model = FakeWhisper.english(new Scripts.Tree(1)
                .sot(Map.of(sp.noSpeech(), 0.4, 9, 0.6))
                .on(List.of(), Map.of(DELTA, 1.0)));
        DecodingResult r = run(model, noTimestamps().withPrompt(new int[] {ALPHA, BRAVO}));
        assertThat(model.feeds.get(0)).isDeepEqualTo(new int[][] {{sp.startOfPrev(), ALPHA, BRAVO, sp.sot()}});
        assertThat(model.feeds.get(1)).isDeepEqualTo(new int[][] {{sp.noTimestamps()}});
        assertThat(r.noSpeechProb()).isCloseTo(0.4, within(1e-6));
        assertThat(r.tokens()).containsExactly(DELTA);
    }
}
