package dev.dictum.gpu.cpu;

/**
 * Packs a depth block of the left-hand operand A (row-major, M × kc at depth k0) into the layout the
 * micro-kernel broadcasts from: micro-panels of {@link GemmKernel#MR} rows, each stored k-major
 * ({@code dst[(t·kc + k)·MR + r]} for rows t·MR + r), so one k step of the kernel reads MR adjacent floats
 * through one pointer instead of MR row streams {@code lda} apart. Rows past M are zero (their results are
 * discarded), so the kernel needs no row tail.
 */
final class GemmRows {

    static final int MR = GemmKernel.MR;

    private GemmRows() {
    }

    /** Floats a packed block of m rows and depth kc takes: whole micro-panels. */
    static int size(int m, int kc) {
        return (m + MR - 1) / MR * MR * kc;
    }

    /** Packs micro-panels [t0, t1) of A's rows (panel t holds rows t·MR ..) at depths [k0, k0+kc) into {@code dst}. */
    static void pack(float[] a, int aOff, int lda, int m, int k0, int kc, int t0, int t1, float[] dst) {
        for (int t = t0; t < t1; t++) {
            int base = t * kc * MR;
            for (int r = 0; r < MR; r++) {
                int row = t * MR + r;
                if (row >= m) {
                    for (int k = 0; k < kc; k++) {
                        dst[base + k * MR + r] = 0f;
                    }
                    continue;
                }
                int src = aOff + row * lda + k0;
                for (int k = 0; k < kc; k++) {
                    dst[base + k * MR + r] = a[src + k];
                }
            }
        }
    }
}
