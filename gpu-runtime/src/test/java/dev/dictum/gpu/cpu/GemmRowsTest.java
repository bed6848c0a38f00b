package dev.dictum.gpu.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** {@link GemmRows#pack}: the micro-kernel's view of A, element by element, rows past M zero. */
class GemmRowsTest {

    @Test
    void packsADepthBlockOfStridedRowsIntoKMajorMicroPanels() {
        int mr = GemmRows.MR;
        int m = 3 * mr + 1; // a last micro-panel with one real row
        int lda = 41;
        int aOff = 5;
        int k0 = 7;
        int kc = 19;
        float[] a = TestWeights.activations(aOff + m * lda, 12);
        int panels = (m + mr - 1) / mr;
        float[] dst = new float[GemmRows.size(m, kc)];
        Arrays.fill(dst, Float.NaN); // a reused scratch: stale values must not survive in the padding rows
        // Two calls over disjoint panel ranges, as two tasks would pack them.
        GemmRows.pack(a, aOff, lda, m, k0, kc, 0, 2, dst);
        GemmRows.pack(a, aOff, lda, m, k0, kc, 2, panels, dst);
        assertThat(dst.length).isEqualTo(panels * mr * kc);
        for (int row = 0; row < panels * mr; row++) {
            for (int k = 0; k < kc; k++) {
                float want = row < m ? a[aOff + row * lda + k0 + k] : 0f;
                int at = (row / mr * kc + k) * mr + row % mr;
                assertThat(dst[at]).as("row %d depth %d", row, k).isEqualTo(want);
            }
        }
    }
}
