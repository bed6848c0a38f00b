package dev.dictum.whisper.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The vocabulary's log-sum-exp (every beam's log-softmax, every token) against float64 on fresh rows. */
class LogitMathTest {
    private static double reference(float[] x, int from, int to) {
        double max = Double.NEGATIVE_INFINITY;
        for (int i = from; i < to; i++) {
            max = Math.max(max, x[i]);
        }
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += Math.exp(x[i] - max);
        }
        return max + Math.log(sum);
    }

    @ParameterizedTest(name = "n={0}")
    @ValueSource(ints = {1, 7, 16, 17, 1501, 51864, 51865, 51866, 100_003})
    void logSumExpMatchesFloat64OnLogitLikeRows(int n) {
        Random random = new Random(n * 31L + System.nanoTime());
        for (int round = 0; round < 4; round++) {
            float[] row = new float[n + 5];
            java.util.Arrays.fill(row, Float.NaN); // outside [from, to): must not be read
            float scale = round == 0 ? 1 : round * 6; // flat rows and peaked ones (logits span ~±30)
            for (int i = 2; i < n + 2; i++) {
                row[i] = (float) (random.nextGaussian() * scale) + (round == 3 ? 40 : 0);
            }
            if (n > 20) { // the filters' masks
                for (int i = 2; i < n + 2; i += 7) {
                    row[i] = LogitMath.MASKED;
                }
            }
            double want = reference(row, 2, n + 2);
            assertThat(LogitMath.logSumExp(row, 2, n + 2)).as("round %d", round).isCloseTo(want, within(2e-6 * Math.max(1, Math.abs(want))));
        }
    }

    @Test
    void anAllMaskedOrEmptyRangeIsMinusInfinity() {
        float[] row = {LogitMath.MASKED, LogitMath.MASKED, 3f};
        assertThat(LogitMath.logSumExp(row, 0, 2)).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(LogitMath.logSumExp(row, 1, 1)).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(LogitMath.logSumExp(row, 2, 3)).isEqualTo(3.0);
    }
}
