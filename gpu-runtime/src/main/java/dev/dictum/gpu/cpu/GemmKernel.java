package dev.dictum.gpu.cpu;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * The register-blocked GEMM micro-kernel: a {@value #MR} × ({@value #NR}·L) tile of C, L = lanes.
 * Generated code (one variable per accumulator: the Vector API only stays in registers when C2
 * can see every vector as a separate local).
 *
 * <p>Each k step loads {@value #NR} vectors of the packed W panel and broadcasts {@value #MR}
 * scalars of A into 12 accumulators: enough independent FMA chains to cover Zen 4's FMA
 * latency (4) × issue rate, with registers to spare so C2 does not spill.
 *
 * <p>Shape chosen by measurement ({@code KernelProbe}, one core, KC = 128, 512-bit, GFLOP/s per
 * CPU-second; peak 116): 6×2 ≈ 88, 4×3 ≈ 88, 4×4 77, 6×3 70, 8×3 68, 6×4 66. Tiles with more
 * accumulators lose: C2's register allocation of 18–24 live vectors plus the broadcasts spills.
 * At KC = 256: 512-bit 6×2 ≈ 88–92, 256-bit 6×2 ≈ 74 (same double-pumped FMA throughput on
 * Zen 4, but twice the loads, broadcasts and loop overhead per FLOP), so the preferred 512-bit
 * species is the default.
 *
 * <p>Issue 21 re-measured the tile for 256-bit vectors (16 ymm registers) on an Intel CPU with two
 * 512-bit FMA ports (peak per CPU-second: 107-124 GFLOP/s at 256 bits, 222 at 512), one thread,
 * kc = 256, GFLOP/s per CPU-second (the machine under load 14-17; a generated probe of each shape):
 * 6×2 104, 5×2 97-101, 4×2 92, 5×3 79, 3×4 75, 4×3 74, 8×1 67. 6×2 stays the tile at both widths:
 * 12 accumulators + 2 panel vectors + 1 broadcast fit the 16 ymm registers with one to spare, while
 * 4×3 and 3×4 need all 16 (or more) and C2 spills. (At 512 bits the same probe gave 6×2 130-148,
 * 6×4 157, 12×2 154, 8×3 147: within the load's noise of each other, so the 512-bit tile is kept.)
 * What the widths do differ in is the depth per block: see {@link Gemm#depthBlock}.
 */
final class GemmKernel {

    static final VectorSpecies<Float> F = CpuVectors.F;
    static final int L = CpuVectors.L;
    static final int MR = 6;
    static final int NR = 2;
    /** Packed panel width in floats. */
    static final int PW = NR * L;
    /** Floats of the scratch a tile's accumulators leave through. */
    static final int ACC = MR * PW;

    private GemmKernel() {
    }

    /**
     * C[row0 .., col0 ..] (+)= A[rows, kc] · panel, through the epilogue. {@code ab} indexes A at
     * (row0, k0) with leading dimension lda; {@code cb} indexes C at (row0, col0). Rows past
     * {@code rows} re-read the last valid row of A (results discarded), so there is no row-tail
     * kernel. {@code cols} ≤ PW valid columns. first: the first depth block (apply alpha, bias,
     * residual; C is not read), otherwise C accumulates (GELU is applied by Gemm after the last block).
     * {@code acc}: the caller's scratch of at least {@link #ACC} floats.
     */
    static void tile(int kc, float[] a, int ab, int lda, float[] wp, int wpOff, float[] c, int cb, int ldc,
            int rows, int cols, boolean first, KernelEpilogue e, int row0, int col0, float[] acc) {
        tile(kc, a, ab, ab + Math.min(1, rows - 1) * lda, ab + Math.min(2, rows - 1) * lda, ab + Math.min(3, rows - 1) * lda, ab + Math.min(4, rows - 1) * lda, ab + Math.min(5, rows - 1) * lda, wp, wpOff, c, cb, cb + 1 * ldc, cb + 2 * ldc, cb + 3 * ldc, cb + 4 * ldc, cb + 5 * ldc, rows, cols, first, e, row0, col0, acc);
    }

    private static void tile(int kc, float[] a, int a0, int a1, int a2, int a3, int a4, int a5, float[] wp, int wpOff,
            float[] c, int ci0, int ci1, int ci2, int ci3, int ci4, int ci5, int rows, int cols,
            boolean first, KernelEpilogue e, int row0, int col0, float[] acc) {
        FloatVector c00 = FloatVector.zero(F), c01 = FloatVector.zero(F);
        FloatVector c10 = FloatVector.zero(F), c11 = FloatVector.zero(F);
        FloatVector c20 = FloatVector.zero(F), c21 = FloatVector.zero(F);
        FloatVector c30 = FloatVector.zero(F), c31 = FloatVector.zero(F);
        FloatVector c40 = FloatVector.zero(F), c41 = FloatVector.zero(F);
        FloatVector c50 = FloatVector.zero(F), c51 = FloatVector.zero(F);
        int p = wpOff;
        for (int k = 0; k < kc; k++, p += PW) {
            FloatVector w0 = FloatVector.fromArray(F, wp, p);
            FloatVector w1 = FloatVector.fromArray(F, wp, p + 1 * L);
            FloatVector b;
            b = FloatVector.broadcast(F, a[a0 + k]);
            c00 = w0.fma(b, c00);
            c01 = w1.fma(b, c01);
            b = FloatVector.broadcast(F, a[a1 + k]);
            c10 = w0.fma(b, c10);
            c11 = w1.fma(b, c11);
            b = FloatVector.broadcast(F, a[a2 + k]);
            c20 = w0.fma(b, c20);
            c21 = w1.fma(b, c21);
            b = FloatVector.broadcast(F, a[a3 + k]);
            c30 = w0.fma(b, c30);
            c31 = w1.fma(b, c31);
            b = FloatVector.broadcast(F, a[a4 + k]);
            c40 = w0.fma(b, c40);
            c41 = w1.fma(b, c41);
            b = FloatVector.broadcast(F, a[a5 + k]);
            c50 = w0.fma(b, c50);
            c51 = w1.fma(b, c51);
        }
        // The accumulators leave through a scratch tile, not as arguments: a vector passed to a method
        // that C2 does not inline becomes a heap object (KernelAllocationTest: 230 KB a call of a
        // 150-row linear with the residual epilogue, when each went through store/finish).
        c00.intoArray(acc, 0 * PW);
        c01.intoArray(acc, 0 * PW + L);
        c10.intoArray(acc, 1 * PW);
        c11.intoArray(acc, 1 * PW + L);
        c20.intoArray(acc, 2 * PW);
        c21.intoArray(acc, 2 * PW + L);
        c30.intoArray(acc, 3 * PW);
        c31.intoArray(acc, 3 * PW + L);
        c40.intoArray(acc, 4 * PW);
        c41.intoArray(acc, 4 * PW + L);
        c50.intoArray(acc, 5 * PW);
        c51.intoArray(acc, 5 * PW + L);
        for (int r = 0; r < rows; r++) {
            int ci = r == 0 ? ci0 : r == 1 ? ci1 : r == 2 ? ci2 : r == 3 ? ci3 : r == 4 ? ci4 : ci5;
            finishRow(acc, r * PW, c, ci, cols, first, e, row0 + r, col0);
        }
    }

    /**
     * One row of the tile from the scratch into C: {@code cols} ≤ PW values through the epilogue (the
     * first depth block: alpha, bias and residual, C not read; the residual may be C itself, read before
     * it is written) or added to C (a later block). Masked, so a column tail reads and writes nothing past
     * the matrix; a full vector's mask is all true. One path for both: a branch whose side the profile has
     * not seen makes C2 drop the compiled kernel mid-call (see CpuAttention#visible).
     */
    private static void finishRow(float[] acc, int ai, float[] c, int ci, int cols, boolean first, KernelEpilogue e,
            int row, int col) {
        for (int j = 0; j < NR && j * L < cols; j++) {
            VectorMask<Float> m = F.indexInRange(j * L, cols);
            int at = ci + j * L;
            int cj = col + j * L;
            FloatVector v = FloatVector.fromArray(F, acc, ai + j * L);
            if (first) {
                if (e.alpha() != 1f) {
                    v = v.mul(e.alpha());
                }
                if (e.bias() != null) {
                    v = v.add(FloatVector.fromArray(F, e.bias(), cj, m));
                }
                if (e.residual() != null) {
                    v = v.add(FloatVector.fromArray(F, e.residual(), e.residualOff() + row * e.ldr() + cj, m));
                }
            } else {
                v = v.add(FloatVector.fromArray(F, c, at, m));
            }
            v.intoArray(c, at, m);
        }
    }
}
