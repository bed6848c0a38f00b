package dev.dictum.gpu.cpu;

/**
 * A weight matrix re-laid once for decoding (few rows of A): panels of output rows whose products
 * are broadcast FMAs with no horizontal sums. One implementation per stored dtype that has one
 * ({@link GemvPanelsF16}, {@link GemvPanelsQ8_0}); other dtypes stream from the file ({@link Gemv}).
 *
 * <p>Once a matrix has panels its pages of the model file are released ({@link CpuWeight}), and every
 * later read of the matrix comes from here: the embedding's rows ({@link #widenRow}) and the GEMM's
 * packing for products with more rows ({@link #widenColumns}). Both give exactly the values
 * {@link Dequant} gives from the file.
 */
sealed interface DecoderPanels permits GemvPanelsF16, GemvPanelsQ8_0 {

    /** C[i, :] = epilogue(A[i, :] · Wᵀ) for {@code m} rows of A. */
    void run(float[] a, int aOff, int lda, int m, float[] c, int cOff, int ldc, KernelEpilogue e);

    /** Output rows per panel: a {@link #widenColumns} call stays inside one. */
    int outputsPerPanel();

    /** Row {@code r} of W in f32 into {@code dst[off, off + k)}. */
    void widenRow(int r, float[] dst, int off);

    /**
     * Outputs {@code [col, col + width)} (inside one panel) at depths {@code [k0, k0 + kc)} in f32, k-major:
     * {@code dst[dOff + kk·stride + j]} is W[col + j][k0 + kk] (a GEMM micro-panel, see {@link GemmPanels}).
     */
    void widenColumns(int col, int width, int k0, int kc, float[] dst, int dOff, int stride);

    /** The one-line error of a {@link #widenColumns} call outside the matrix or across panels. */
    static void checkColumns(int col, int width, int k0, int kc, int n, int k, int p) {
        if (col < 0 || width < 1 || col % p + width > p || col + width > (n + p - 1) / p * p || k0 < 0 || kc < 0
                || k0 + kc > k) {
            throw new IndexOutOfBoundsException("outputs [" + col + ", " + (col + width) + ") depths [" + k0 + ", "
                    + (k0 + kc) + ") of a [" + n + ", " + k + "] matrix in panels of " + p);
        }
    }

    /** The one-line error of a row outside the matrix. */
    static void checkRow(int r, int n, int k) {
        if (r < 0 || r >= n) {
            throw new IndexOutOfBoundsException("row " + r + " of a [" + n + ", " + k + "] matrix");
        }
    }
}
