package dev.dictum.gpu.cpu;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * The register-blocked GEMM micro-kernel: a {@value #MR} × ({@value #NR}·L) tile of C, L = lanes.
 *
 * <p>Each k step loads {@value #NR} vectors of the packed W panel and broadcasts {@value #MR}
 * scalars of A: 12 independent FMAs against 8 loads. 12 accumulators cover Zen 4's FMA latency
 * (4 cycles) × throughput (one 512-bit FMA per cycle, or two 256-bit), and with w0, w1 and the
 * broadcast use 15 of the 32 vector registers, so C2 does not spill.
 * (Generated shape; see the comment in {@link Gemm} for the measured alternatives.)
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
     * C tile += A[rows, kc] · panel. {@code aI} index row i of A at depth k0 (rows ≥ {@code rows}
     * repeat the last valid row, computed and discarded), {@code ciI} index C[row i, col0].
     * {@code cols} ≤ PW valid columns. first: this is the first depth block (apply alpha, bias,
     * residual; C is not read); otherwise C accumulates. last: the final block (apply GELU).
     */
    static void tile(int kc, float[] a, int a0, int a1, int a2, int a3, int a4, int a5, float[] wp, int wpOff,
            float[] c, int ci0, int ci1, int ci2, int ci3, int ci4, int ci5, int rows, int cols,
            boolean first, boolean last, Epilogue e, int row0, int col0) {
        FloatVector c00 = FloatVector.zero(F), c01 = FloatVector.zero(F);
        FloatVector c10 = FloatVector.zero(F), c11 = FloatVector.zero(F);
        FloatVector c20 = FloatVector.zero(F), c21 = FloatVector.zero(F);
        FloatVector c30 = FloatVector.zero(F), c31 = FloatVector.zero(F);
        FloatVector c40 = FloatVector.zero(F), c41 = FloatVector.zero(F);
        FloatVector c50 = FloatVector.zero(F), c51 = FloatVector.zero(F);
        int p = wpOff;
        for (int k = 0; k < kc; k++, p += PW) {
            FloatVector w0 = FloatVector.fromArray(F, wp, p);
            FloatVector w1 = FloatVector.fromArray(F, wp, p + L);
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
        store(c00, c01, c, ci0, cols, first, last, e, row0 + 0, col0);
        if (rows > 1) store(c10, c11, c, ci1, cols, first, last, e, row0 + 1, col0);
        if (rows > 2) store(c20, c21, c, ci2, cols, first, last, e, row0 + 2, col0);
        if (rows > 3) store(c30, c31, c, ci3, cols, first, last, e, row0 + 3, col0);
        if (rows > 4) store(c40, c41, c, ci4, cols, first, last, e, row0 + 4, col0);
        if (rows > 5) store(c50, c51, c, ci5, cols, first, last, e, row0 + 5, col0);
    }

    /** Writes one row of the tile (two vectors) through the epilogue. */
    private static void store(FloatVector v0, FloatVector v1, float[] c, int ci, int cols,
            boolean first, boolean last, Epilogue e, int row, int col) {
        if (cols == PW) {
            finish(v0, c, ci, first, last, e, row, col).intoArray(c, ci);
            finish(v1, c, ci + L, first, last, e, row, col + L).intoArray(c, ci + L);
            return;
        }
        storePartial(v0, c, ci, Math.min(cols, L), first, last, e, row, col);
        if (cols > L) {
            storePartial(v1, c, ci + L, cols - L, first, last, e, row, col + L);
        }
    }

    /** Column tail: fewer than PW columns, masked so nothing past the matrix is read or written. */
    private static void storePartial(FloatVector v, float[] c, int ci, int n,
            boolean first, boolean last, Epilogue e, int row, int col) {
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
        if (last && e.gelu()) {
            v = Gelu.gelu(v);
        }
        v.intoArray(c, ci, m);
    }

    private static FloatVector finish(FloatVector v, float[] c, int ci,
            boolean first, boolean last, Epilogue e, int row, int col) {
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
        if (last && e.gelu()) {
            v = Gelu.gelu(v);
        }
        return v;
    }
}
