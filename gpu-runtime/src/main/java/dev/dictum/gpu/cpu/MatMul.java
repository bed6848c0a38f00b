package dev.dictum.gpu.cpu;

import dev.dictum.gpu.HostTensor;
import java.util.Arrays;

/**
 * The CPU backend's matrix products. Activations are row-major heap float[] addressed as
 * (array, offset, leading dimension) so callers can pass sub-matrices (a head's columns, a slice of
 * rows) without copying; weights are {@link HostTensor}s of any dtype, read from their mapped
 * segments, seen as [N = dim(0), K = the rest].
 *
 * <p>Regime by M: up to {@link #SMALL_M} rows the product is memory-bound (decoder), so weights
 * stream once in their own dtype ({@link Gemv}); above it, a packed, cache-blocked GEMM
 * ({@link Gemm}) that dequantises W panels once and reuses them for all rows. Both are parallel
 * on {@link ComputePool}, allocate no buffers per call, are safe to call from several threads at
 * once, and give bit-identical results for identical inputs.
 *
 * <p>The output must not overlap the inputs, except that the residual may be the output itself.
 */
public final class MatMul {

    /** Largest M handled by the streaming (GEMV) path. */
    public static final int SMALL_M = 16;

    private MatMul() {
    }

    /** C[M, N] = A[M, K] · Wᵀ + bias (bias may be null). */
    public static void linear(float[] a, int aOff, int lda, int m, HostTensor w, float[] bias,
            float[] c, int cOff, int ldc) {
        run(a, aOff, lda, m, w, c, cOff, ldc, KernelEpilogue.of(bias, false));
    }

    /** C = gelu(A · Wᵀ + bias), exact erf GELU. */
    public static void linearGelu(float[] a, int aOff, int lda, int m, HostTensor w, float[] bias,
            float[] c, int cOff, int ldc) {
        run(a, aOff, lda, m, w, c, cOff, ldc, KernelEpilogue.of(bias, true));
    }

    /** C = residual + A · Wᵀ + bias. {@code residual} may be {@code c} itself (same offset and stride). */
    public static void linearResidual(float[] a, int aOff, int lda, int m, HostTensor w, float[] bias,
            float[] residual, int rOff, int ldr, float[] c, int cOff, int ldc) {
        int n = Math.toIntExact(w.rows());
        checkMatrix("residual", residual, rOff, ldr, m, n);
        run(a, aOff, lda, m, w, c, cOff, ldc, new KernelEpilogue(1f, bias, false, residual, rOff, ldr));
    }

    /** Dense shorthand: C[M, N] = A[M, K] · Wᵀ + bias with packed rows. */
    public static void linear(float[] a, int m, HostTensor w, float[] bias, float[] c) {
        int n = Math.toIntExact(w.rows());
        int k = Math.toIntExact(w.cols());
        linear(a, 0, k, m, w, bias, c, 0, n);
    }

    /**
     * C[M, N] = alpha · A[M, K] · B[N, K]ᵀ on heap arrays (attention scores: Q·Kᵀ per head,
     * alpha = 1/√d).
     */
    public static void matmulTransposed(int m, int n, int k, float alpha, float[] a, int aOff, int lda,
            float[] b, int bOff, int ldb, float[] c, int cOff, int ldc) {
        checkMatrix("a", a, aOff, lda, m, k);
        checkMatrix("b", b, bOff, ldb, n, k);
        checkMatrix("c", c, cOff, ldc, m, n);
        if (m <= SMALL_M) {
            parallelColumns(m, n, k, (c0, c1) -> {
                for (int i = 0; i < m; i++) {
                    for (int j = c0; j < c1; j++) {
                        c[cOff + i * ldc + j] = alpha * HeapKernels.dot(a, aOff + i * lda, b, bOff + j * ldb, k);
                    }
                }
            });
            return;
        }
        Gemm.run(a, aOff, lda, m, n, k, new GemmPanels.Rows(b, bOff, ldb), c, cOff, ldc,
                new KernelEpilogue(alpha, null, false, null, 0, 0));
    }

    /** C[M, N] = A[M, K] · B[K, N] on heap arrays (attention output: P·V per head). */
    public static void matmul(int m, int n, int k, float[] a, int aOff, int lda,
            float[] b, int bOff, int ldb, float[] c, int cOff, int ldc) {
        checkMatrix("a", a, aOff, lda, m, k);
        checkMatrix("b", b, bOff, ldb, k, n);
        checkMatrix("c", c, cOff, ldc, m, n);
        if (m <= SMALL_M) {
            parallelColumns(m, n, k, (c0, c1) -> {
                for (int i = 0; i < m; i++) {
                    int ci = cOff + i * ldc;
                    Arrays.fill(c, ci + c0, ci + c1, 0f);
                    for (int s = 0; s < k; s++) {
                        HeapKernels.axpy(a[aOff + i * lda + s], b, bOff + s * ldb + c0, c, ci + c0, c1 - c0);
                    }
                }
            });
            return;
        }
        Gemm.run(a, aOff, lda, m, n, k, new GemmPanels.Columns(b, bOff, ldb), c, cOff, ldc, KernelEpilogue.NONE);
    }

    private interface ColumnRange {
        void run(int c0, int c1);
    }

    /** Splits columns over the pool only when the product is big enough to pay for the hand-off. */
    private static void parallelColumns(int m, int n, int k, ColumnRange body) {
        long work = (long) m * n * k;
        int tasks = (int) Math.max(1, Math.min(4L * ComputePool.THREADS, Math.min(work >> 16, n / 64)));
        int per = ((n + tasks - 1) / tasks + 15) & ~15;
        int count = (n + per - 1) / per;
        ComputePool.parallelFor(count, t -> body.run(t * per, Math.min(n, (t + 1) * per)));
    }

    private static void run(float[] a, int aOff, int lda, int m, HostTensor w, float[] c, int cOff, int ldc,
            KernelEpilogue e) {
        int n = Math.toIntExact(w.rows());
        int k = Math.toIntExact(w.cols());
        checkMatrix("a", a, aOff, lda, m, k);
        checkMatrix("c", c, cOff, ldc, m, n);
        if (e.bias() != null && e.bias().length < n) {
            throw new IllegalArgumentException("bias has " + e.bias().length + " values, needs " + n);
        }
        if (m <= SMALL_M) {
            Gemv.run(a, aOff, lda, m, w, c, cOff, ldc, e);
        } else {
            Gemm.run(a, aOff, lda, m, n, k, new GemmPanels.Weights(w), c, cOff, ldc, e);
        }
    }

    private static void checkMatrix(String what, float[] x, int off, int ld, int rows, int cols) {
        if (rows < 0 || cols < 0 || off < 0 || (rows > 1 && ld < cols)) {
            throw new IllegalArgumentException(what + ": bad shape " + rows + "x" + cols + " off " + off + " ld " + ld);
        }
        if (rows > 0 && cols > 0 && (long) off + (long) (rows - 1) * ld + cols > x.length) {
            throw new IndexOutOfBoundsException(what + ": " + rows + "x" + cols + " at " + off + " ld " + ld
                    + " exceeds length " + x.length);
        }
    }
}
