package dev.dictum.gpu.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import jdk.incubator.vector.FloatVector;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Softmax's exponentials ({@link VectorMath#expShiftedSum}) and the vocabulary's log-sum-exp
 * ({@link VectorMath#sumExpShifted}) against float64, and the loop's exponentials against the scalar form
 * bit for bit (the loop writes the polynomial out so that no vector crosses a call, its comment says why;
 * this keeps the vector and the scalar tail one function), its lane sum in {@link CpuVectors#sum}'s order.
 */
class VectorMathTest {
    private final SplittableRandom rnd = new SplittableRandom(14);

    /** Sizes: under one vector, odd, a 150-key encoder row, a 448-token decoder row, past one sum block. */
    @ParameterizedTest
    @ValueSource(ints = {1, 7, 17, 150, 449, 1500, 4099})
    void expShiftedSumMatchesFloat64(int n) {
        float[] x = scores(n, 6.0);
        float max = VectorMath.max(x, 0, n);
        float[] p = new float[n + 5];
        Arrays.fill(p, Float.NaN); // poison: a slot the call should not touch stays NaN
        System.arraycopy(x, 0, p, 2, n);
        float sum = VectorMath.expShiftedSum(p, 2, n, max);

        double err = 0;
        double norm = 0;
        double refSum = 0;
        for (int j = 0; j < n; j++) {
            double ref = Math.exp((double) x[j] - max);
            err += (p[2 + j] - ref) * (p[2 + j] - ref);
            norm += ref * ref;
            refSum += ref;
        }
        assertThat(Math.sqrt(err / norm)).as("‖exp − ref‖/‖ref‖ at n=%d", n).isLessThan(3e-7);
        assertThat(Math.abs(sum - refSum) / refSum).as("sum at n=%d", n).isLessThan(1e-6);
        assertThat(p[0]).isNaN();
        assertThat(p[1]).isNaN();
        assertThat(p[n + 2]).isNaN();
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 150, 1503})
    void theLoopsExponentialsAreTheScalarOnesAndItsSumIsCpuVectorsSum(int n) {
        float[] x = scores(n, 12.0);
        x[0] = -100f; // below the flush point: 0 in every form
        float max = VectorMath.max(x, 0, n);
        float[] p = x.clone();
        float sum = VectorMath.expShiftedSum(p, 0, n, max);

        var f = CpuVectors.F;
        int l = CpuVectors.L;
        FloatVector acc = FloatVector.zero(f);
        int j = 0;
        for (; j + l <= n; j += l) {
            for (int i = 0; i < l; i++) {
                assertThat(p[j + i]).as("lane %d", j + i).isEqualTo(VectorMath.exp(x[j + i] - max));
            }
            acc = acc.add(FloatVector.fromArray(f, p, j));
        }
        float expected = CpuVectors.sum(acc);
        for (; j < n; j++) {
            assertThat(p[j]).isEqualTo(VectorMath.exp(x[j] - max));
            expected += p[j];
        }
        assertThat(sum).as("the sum in CpuVectors.sum's order, then the tail").isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(ints = {5, 1021, 51866})
    void sumExpShiftedLeavesTheRowAndMatchesFloat64(int n) {
        float[] x = scores(n, 8.0);
        float[] before = x.clone();
        float max = VectorMath.max(x, 0, n);
        double sum = VectorMath.sumExpShifted(x, 0, n, max);
        double ref = 0;
        for (float v : before) {
            ref += Math.exp((double) v - max);
        }
        assertThat(x).as("the logits are not touched").isEqualTo(before);
        assertThat(Math.abs(sum - ref) / ref).as("log-sum-exp's sum at n=%d", n).isLessThan(1e-6);
    }

    private float[] scores(int n, double spread) {
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = (float) (rnd.nextGaussian() * spread);
        }
        return x;
    }
}
