package dev.dictum.whisper.decode;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The greedy decoder's log-probabilities, computed on the side thread with up to
 * {@link GreedyDecoder#IN_FLIGHT} steps pending, are the bits the inline computation gives, added in
 * step order, for decodes longer than the pipeline and rows that end at different steps.
 */
class GreedyLogprobPipelineTest {
    private static final int VOCAB = 51864;
    private static final int EOT = 50256;

    @Test
    void pendingLogprobsSettleToTheInlineBitsInStepOrder() {
        int rows = 3;
        int steps = 3 * GreedyDecoder.IN_FLIGHT + 5;
        int[] initial = {50257, 50362};
        SequenceBatch batch = new SequenceBatch(rows, initial.length + steps + 1, initial);
        GreedyDecoder decoder = new GreedyDecoder(0, EOT, initial.length, rows, null);
        SplittableRandom rng = new SplittableRandom(7);
        double[] sums = new double[rows];
        float[][] expected = new float[rows][steps];
        boolean[] ended = new boolean[rows];
        for (int s = 0; s < steps; s++) {
            float[][] logits = new float[rows][VOCAB];
            for (int r = 0; r < rows; r++) {
                for (int v = 0; v < VOCAB; v++) {
                    logits[r][v] = (float) (rng.nextDouble() * 20 - 10);
                }
                if (s == 5 + 7 * r) {
                    logits[r][EOT] = 50; // row r ends here; eot costs nothing afterwards
                }
                if (!ended[r]) {
                    int t = LogitMath.argmax(logits[r]);
                    double lp = logits[r][t] - LogitMath.logSumExp(logits[r], 0, VOCAB);
                    sums[r] += lp;
                    expected[r][s] = (float) lp;
                    ended[r] = t == EOT;
                }
            }
            float[][] poisonedLater = logits; // the decoder must have copied the rows it defers
            decoder.update(batch, logits);
            for (float[] row : poisonedLater) {
                java.util.Arrays.fill(row, Float.NaN);
            }
        }
        List<Candidate> out = decoder.finish(batch);
        for (int r = 0; r < rows; r++) {
            assertThat(batch.sumLogprobs[r]).as("row %d sum", r).isEqualTo(sums[r]);
            for (int s = 0; s < steps; s++) {
                assertThat(batch.logprobs[r][initial.length + s]).as("row %d step %d", r, s).isEqualTo(expected[r][s]);
            }
            assertThat(out.get(r).sumLogprob()).isEqualTo(sums[r]);
        }
    }
}
