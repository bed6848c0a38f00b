package dev.dictum.whisper.decode;

import static dev.dictum.whisper.decode.ToyCodec.ALPHA;
import static dev.dictum.whisper.decode.ToyCodec.BRAVO;
import static dev.dictum.whisper.decode.ToyCodec.CHARLIE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.dictum.whisper.tokenizer.SpecialTokens;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SamplingTest {
    private static final int EOT = SpecialTokens.forVocabSize(51864).eot();

    private static DecodingResult run(FakeWhisper model, DecodingOptions o, long seed) {
        return new DecodingTask(model, new ToyCodec(EOT), o)
                .run(model.encode(new float[] {0}), model.newDecoder(o.groupSize()), new SplittableRandom(seed));
    }

    /** Ten equally likely words at every step, for eight steps. */
    private static FakeWhisper flat() {
        return FakeWhisper.english((c, out) -> {
            int sampled = c.history().length - 2;
            if (c.history().length >= 2 && sampled < 8) {
                for (int t = 400; t < 410; t++) {
                    out[t] = 0f;
                }
            } else if (c.history().length >= 2) {
                out[EOT] = 0f;
            }
        });
    }

    @Test
    void theSameSeedGivesTheSameSamples() {
        DecodingOptions o = DecodingOptions.defaults().withWithoutTimestamps(true).withTemperature(1.0);
        int[] first = run(flat(), o, 42).tokens();
        int[] again = run(flat(), o, 42).tokens();
        int[] other = run(flat(), o, 43).tokens();
        assertThat(first).hasSize(8).isEqualTo(again);
        assertThat(other).isNotEqualTo(first);
        assertThat(Arrays.stream(first).distinct().count()).isGreaterThan(2);
    }

    @Test
    void bestOfSamplesIndependentlyAndReturnsTheHighestRanked() {
        // [A] then eot: ln .5 / 1; [B, C] then eot: ln .5 / 2 ranks higher
        FakeWhisper model = FakeWhisper.english(new Scripts.Tree(1)
                .on(List.of(), Map.of(ALPHA, 0.5, BRAVO, 0.5))
                .on(List.of(BRAVO), Map.of(CHARLIE, 1.0)));
        DecodingOptions o = DecodingOptions.defaults().withWithoutTimestamps(true).withTemperature(1.0).withBestOf(4);
        DecodingResult r = run(model, o, 7);

        List<Integer> firstTokens = new ArrayList<>();
        for (int[] row : model.histories.get(0)) {
            firstTokens.add(row[2]);
        }
        assertThat(firstTokens).hasSize(4).contains(ALPHA, BRAVO); // the samples differ
        assertThat(r.tokens()).containsExactly(BRAVO, CHARLIE);
        assertThat(r.sumLogprob()).isCloseTo(Math.log(0.5), within(1e-6));
        assertThat(r.temperature()).isEqualTo(1.0);
    }

    @Test
    void aLowTemperatureSharpensTheDistribution() {
        // p(B) / p(A) = (0.4 / 0.6) ^ (1 / 0.05) ~ 3e-4: 200 draws at T = 0.05 pick A every time
        DecodingOptions o = DecodingOptions.defaults().withWithoutTimestamps(true).withTemperature(0.05)
                .withBestOf(1).withSampleLen(1);
        SplittableRandom rng = new SplittableRandom(1);
        int alphas = 0;
        for (int i = 0; i < 200; i++) {
            FakeWhisper m = FakeWhisper.english(new Scripts.Tree(1).on(List.of(), Map.of(ALPHA, 0.6, BRAVO, 0.4)));
            DecodingResult r = new DecodingTask(m, new ToyCodec(EOT), o).run(m.encode(new float[1]), m.newDecoder(1), rng);
            alphas += r.tokens()[0] == ALPHA ? 1 : 0;
        }
        assertThat(alphas).isEqualTo(200);
    }
}
