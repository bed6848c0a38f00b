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

    private GemmKernel() {
    }

    /**
     * C[row0 .., col0 ..] (+)= A[rows, kc] · panel, through the epilogue. {@code ab} indexes A at
     * (row0, k0) with leading dimension lda; {@code cb} indexes C at (row0, col0). Rows past
     * {@code rows} re-read the last valid row of A (results discarded), so there is no row-tail
     * kernel. {@code cols} ≤ PW valid columns. first: the first depth block (apply alpha, bias,
     * residual; C is not read), otherwise C accumulates (GELU is applied by Gemm after the last block).
     */
    static void tile(int kc, float[] a, int ab, int lda, float[] wp, int wpOff, float[] c, int cb, int ldc,
            int rows, int cols, boolean first, KernelEpilogue e, int row0, int col0) {
        tile(kc, a, ab, ab + Math.min(1, rows - 1) * lda, ab + Math.min(2, rows - 1) * lda, ab + Math.min(3, rows - 1) * lda, ab + Math.min(4, rows - 1) * lda, ab + Math.min(5, rows - 1) * lda, wp, wpOff, c, cb, cb + 1 * ldc, cb + 2 * ldc, cb + 3 * ldc, cb + 4 * ldc, cb + 5 * ldc, rows, cols, first, e, row0, col0);
    }

    private static void tile(int kc, float[] a, int a0, int a1, int a2, int a3, int a4, int a5, float[] wp, int wpOff,
            float[] c, int ci0, int ci1, int ci2, int ci3, int ci4, int ci5, int rows, int cols,
            boolean first, KernelEpilogue e, int row0, int col0) {
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
        store(c00, c, ci0 + 0 * L, cols - 0 * L, first, e, row0 + 0, col0 + 0 * L);
        store(c01, c, ci0 + 1 * L, cols - 1 * L, first, e, row0 + 0, col0 + 1 * L);
        if (rows > 1) {
            store(c10, c, ci1 + 0 * L, cols - 0 * L, first, e, row0 + 1, col0 + 0 * L);
            store(c11, c, ci1 + 1 * L, cols - 1 * L, first, e, row0 + 1, col0 + 1 * L);
        }
        if (rows > 2) {
            store(c20, c, ci2 + 0 * L, cols - 0 * L, first, e, row0 + 2, col0 + 0 * L);
            store(c21, c, ci2 + 1 * L, cols - 1 * L, first, e, row0 + 2, col0 + 1 * L);
        }
        if (rows > 3) {
            store(c30, c, ci3 + 0 * L, cols - 0 * L, first, e, row0 + 3, col0 + 0 * L);
            store(c31, c, ci3 + 1 * L, cols - 1 * L, first, e, row0 + 3, col0 + 1 * L);
        }
        if (rows > 4) {
            store(c40, c, ci4 + 0 * L, cols - 0 * L, first, e, row0 + 4, col0 + 0 * L);
            store(c41, c, ci4 + 1 * L, cols - 1 * L, first, e, row0 + 4, col0 + 1 * L);
        }
        if (rows > 5) {
            store(c50, c, ci5 + 0 * L, cols - 0 * L, first, e, row0 + 5, col0 + 0 * L);
            store(c51, c, ci5 + 1 * L, cols - 1 * L, first, e, row0 + 5, col0 + 1 * L);
        }
    }

    /** One vector of a tile row through the epilogue; {@code n} ≤ 0: past the matrix, nothing to do. */
    private static void store(FloatVector v, float[] c, int ci, int n,
            boolean first, KernelEpilogue e, int row, int col) {
        if (n >= L) {
            finish(v, c, ci, first, e, row, col).intoArray(c, ci);
        } else if (n > 0) {
            storePartial(v, c, ci, n, first, e, row, col);
        }
    }

    /** Column tail: fewer than L columns, masked so nothing past the matrix is read or written. */
    private static void storePartial(FloatVector v, float[] c, int ci, int n,
            boolean first, KernelEpilogue e, int row, int col) {
        VectorMask<Float> m = F.indexInRange(0, n);
        if (e.alpha() != 1f) {
            v = v.mul(e.alpha());
        }
        if (first) {
            if (e.bias() != null) {
                v = v.add(FloatVector.fromArray(F, e.bias(), col, m));
            }
            if (e.residual() != null) {
                v = v.add(FloatVector.fromArray(F, e.residual(), e.residualOff() + row * e.ldr() + col, m));
            }
        } else {
            v = v.add(FloatVector.fromArray(F, c, ci, m));
        }
        v.intoArray(c, ci, m);
    }

    private static FloatVector finish(FloatVector v, float[] c, int ci,
            boolean first, KernelEpilogue e, int row, int col) {
        if (e.alpha() != 1f) {
            v = v.mul(e.alpha());
        }
        if (first) {
            if (e.bias() != null) {
                v = v.add(FloatVector.fromArray(F, e.bias(), col));
            }
            if (e.residual() != null) {
                v = v.add(FloatVector.fromArray(F, e.residual(), e.residualOff() + row * e.ldr() + col));
            }
        } else {
            v = v.add(FloatVector.fromArray(F, c, ci));
        }
        return v;
    }
}
