package dev.dictum.whisper.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.format.detect.ModelFiles;
import dev.dictum.whisper.testutil.TestData;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the release's draft check relies on (issue 12): {@link DecoderState#feedAll} gives at every
 * position the logits that feeding one token at a time gives, and after {@link DecoderState#truncate}
 * the state continues exactly as one that never saw the dropped tokens.
 */
class DecoderTruncateTest {
    private static WhisperModel model;

    @BeforeAll
    static void load() {
        model = WhisperModel.load(ModelFiles.open(TestData.model("toy-en").resolve("ggml-toy-en.bin")), new CpuBackend());
    }

    @AfterAll
    static void close() {
        model.close();
    }

    static double relativeError(float[] a, float[] b) {
        double d = 0;
        double n = 0;
        for (int i = 0; i < a.length; i++) {
            d += (a[i] - (double) b[i]) * (a[i] - (double) b[i]);
            n += (double) b[i] * b[i];
        }
        return Math.sqrt(d / n);
    }

    private static int[] randomTokens(SplittableRandom r, int n) {
        int[] t = new int[n];
        for (int i = 0; i < n; i++) {
            t[i] = r.nextInt(50257); // text tokens
        }
        return t;
    }

    @Test
    void feedAllGivesTheStepsLogitsAndTruncateForgetsTheRejectedTokens() {
        WhisperDims d = model.dims();
        int vocab = d.nVocab();
        SplittableRandom r = new SplittableRandom(12);
        int[] prompt = {50257, 50362};
        for (int draft : new int[] {3, 7, 12, 21}) { // direct and blocked attention, GEMV and GEMM rows on the CPU
            int[] tokens = randomTokens(r, draft);
            int keep = 1 + r.nextInt(draft - 1);
            int[] replacement = randomTokens(r, 3);
            try (EncodedAudio audio = model.encode(GreedySteps.randomMel(d, 5));
                    DecoderState batched = model.newDecoder(1);
                    DecoderState stepped = model.newDecoder(1)) {
                // one token at a time: the reference
                float[][] l = new float[1][vocab];
                stepped.reset(audio, 1);
                stepped.feed(new int[][] {prompt}, l);
                float[][] want = new float[draft][];
                for (int i = 0; i < draft; i++) {
                    stepped.feed(new int[][] {{tokens[i]}}, l);
                    want[i] = l[0].clone();
                }
                batched.reset(audio, 1);
                batched.feed(new int[][] {prompt}, l);
                float[][] got = new float[draft][vocab];
                for (float[] row : got) {
                    java.util.Arrays.fill(row, Float.NaN); // poison
                }
                batched.feedAll(tokens, 0, got);
                assertThat(batched.length()).isEqualTo(prompt.length + draft);
                for (int i = 0; i < draft; i++) {
                    assertThat(relativeError(got[i], want[i])).as("draft %d, position %d", draft, i).isLessThan(1e-5);
                }
                // drop the tail, go on with other tokens: as a fresh state fed only prompt + kept + replacement
                batched.truncate(prompt.length + keep);
                assertThat(batched.length()).isEqualTo(prompt.length + keep);
                try (DecoderState fresh = model.newDecoder(1)) {
                    fresh.reset(audio, 1);
                    fresh.feed(new int[][] {prompt}, l);
                    for (int i = 0; i < keep; i++) {
                        fresh.feed(new int[][] {{tokens[i]}}, l);
                    }
                    float[][] a = new float[1][vocab];
                    float[][] b = new float[1][vocab];
                    for (int t : replacement) {
                        batched.feed(new int[][] {{t}}, a);
                        fresh.feed(new int[][] {{t}}, b);
                        assertThat(relativeError(a[0], b[0])).as("draft %d kept %d, after the truncate", draft, keep)
                                .isLessThan(1e-5);
                    }
                }
                assertThatThrownBy(() -> batched.truncate(batched.length() + 1))
                        .isInstanceOf(IllegalArgumentException.class);
                assertThatThrownBy(() -> batched.truncate(-1)).isInstanceOf(IllegalArgumentException.class);
            }
        }
    }
}
