package dev.dictum.gpu.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.gpu.DType;
import dev.dictum.gpu.HostTensor;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The decoder's f16 panels: rows of ordinary magnitude take the ×2¹¹² rebias on the input, rows with
 * an input of 2¹⁵ or more (which ×2¹¹² would overflow) a smaller input scale and a result scale; both
 * must equal the float64 reference, each row in a call that mixes both kinds; the same for the
 * block-wise widening (issue 21), whichever the vector width picks by default.
 */
class GemvPanelsF16Test {
    private static final int N = 200; // not a multiple of the panel width: the last panel is partial
    private static final int K = 384;

    @ParameterizedTest(name = "widened in blocks: {0}")
    @ValueSource(booleans = {false, true})
    void ordinaryAndHugeInputRowsBothMatchTheReference(boolean blocks) {
        HostTensor w = TestWeights.random(DType.F16, N, K, 7);
        GemvPanelsF16 panels = GemvPanelsF16.of(w);
        int m = 3;
        float[] a = new float[m * K];
        SplittableRandom rnd = new SplittableRandom(3);
        for (int i = 0; i < a.length; i++) {
            a[i] = (float) rnd.nextGaussian();
        }
        a[K + 5] = 70000f; // row 1 cannot be prescaled (70000 × 2¹¹² would overflow)
        float[] c = new float[m * N];
        panels.run(a, 0, K, m, c, 0, N, KernelEpilogue.NONE, blocks);
        for (int i = 0; i < m; i++) {
            for (int o = 0; o < N; o++) {
                double ref = 0;
                for (int j = 0; j < K; j++) {
                    ref += (double) Float.float16ToFloat(w.data().getAtIndex(java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED,
                            (long) o * K + j)) * a[i * K + j];
                }
                assertThat((double) c[i * N + o]).as("row %d output %d", i, o)
                        .isCloseTo(ref, org.assertj.core.data.Offset.offset(1e-4 * Math.max(1, Math.abs(ref))));
            }
        }
    }

    /** The default ("auto") widening: the bit trick at 512 bits; at 256, blocks below k 768 (the idle A/Bs). */
    @Test
    void theDefaultWideningFollowsTheWidthAndTheInputLength() {
        assertThat(GemvPanelsF16.WIDEN).isEqualTo("auto");
        boolean narrow = CpuVectors.L < 16;
        assertThat(GemvPanelsF16.widenInBlocks(384)).isEqualTo(narrow);
        assertThat(GemvPanelsF16.widenInBlocks(767)).isEqualTo(narrow);
        assertThat(GemvPanelsF16.widenInBlocks(768)).isFalse();
        assertThat(GemvPanelsF16.widenInBlocks(3072)).isFalse();
    }
}
