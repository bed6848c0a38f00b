package dev.dictum.gpu.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The heap-operand products attention uses, on per-head slices of [T, heads·64] activations. */
class AttentionMatMulTest {

    @ParameterizedTest(name = "T={0} S={1} d={2}")
    @CsvSource({"1,1,64", "1,448,64", "3,17,64", "5,1500,64", "17,33,33", "40,40,64", "300,300,64", "1500,1500,64"})
    void scoresQKTransposedPerHead(int t, int s, int d) {
        int heads = 3;
        int width = heads * d;
        float[] q = TestWeights.activations(t * width, t + s);
        float[] k = TestWeights.activations(s * width, t * s);
        int head = 1;
        float alpha = (float) (1 / Math.sqrt(d));
        int ldc = s + 2;
        float[] c = new float[1 + t * ldc];
        Arrays.fill(c, Float.NaN);
        MatMul.matmulTransposed(t, s, d, alpha, q, head * d, width, k, head * d, width, c, 1, ldc);
        int[] rows = Reference.sampleRows(t);
        double[][] ref = new double[rows.length][s];
        for (int r = 0; r < rows.length; r++) {
            for (int j = 0; j < s; j++) {
                double sum = 0;
                for (int i = 0; i < d; i++) {
                    sum += (double) q[rows[r] * width + head * d + i] * k[j * width + head * d + i];
                }
                ref[r][j] = alpha * sum;
            }
        }
        Reference.assertAllFinite(c, 1, ldc, t, s);
        assertThat(Reference.relativeError(c, 1, ldc, rows, ref)).isLessThan(1e-5);
        float[] again = new float[c.length];
        Arrays.fill(again, Float.NaN);
        MatMul.matmulTransposed(t, s, d, alpha, q, head * d, width, k, head * d, width, again, 1, ldc);
        assertThat(again).isEqualTo(c);
    }

    @ParameterizedTest(name = "T={0} S={1} d={2}")
    @CsvSource({"1,1,64", "1,448,64", "3,17,64", "5,1500,64", "17,33,33", "40,40,64", "300,300,64", "1500,1500,64"})
    void probabilitiesTimesValuesPerHead(int t, int s, int d) {
        int heads = 3;
        int width = heads * d;
        float[] p = TestWeights.activations(t * s, t + 2 * s);
        float[] v = TestWeights.activations(s * width, t * s + 1);
        int head = 2;
        float[] out = new float[t * width];
        Arrays.fill(out, Float.NaN);
        MatMul.matmul(t, d, s, p, 0, s, v, head * d, width, out, head * d, width);
        int[] rows = Reference.sampleRows(t);
        double[][] ref = new double[rows.length][d];
        for (int r = 0; r < rows.length; r++) {
            for (int j = 0; j < d; j++) {
                double sum = 0;
                for (int i = 0; i < s; i++) {
                    sum += (double) p[rows[r] * s + i] * v[i * width + head * d + j];
                }
                ref[r][j] = sum;
            }
        }
        Reference.assertAllFinite(out, head * d, width, t, d);
        assertThat(Reference.relativeError(out, head * d, width, rows, ref)).isLessThan(1e-5);
        // Other heads' columns of the output are untouched.
        for (int i = 0; i < t; i++) {
            for (int j = 0; j < width; j++) {
                if (j / d != head) {
                    assertThat(out[i * width + j]).isNaN();
                }
            }
        }
    }
}
