package dev.dictum.gpu.cpu;

/**
 * A weight matrix re-laid once for decoding (few rows of A): panels of output rows whose products
 * are broadcast FMAs with no horizontal sums. One implementation per stored dtype that has one
 * ({@link GemvPanelsF16}, {@link GemvPanelsQ8_0}); other dtypes stream from the file ({@link Gemv}).
 */
sealed interface DecoderPanels permits GemvPanelsF16, GemvPanelsQ8_0 {

    /** C[i, :] = epilogue(A[i, :] · Wᵀ) for {@code m} rows of A. */
    void run(float[] a, int aOff, int lda, int m, float[] c, int cOff, int ldc, KernelEpilogue e);
}
