package dev.dictum.gpu.cpu;

import dev.dictum.gpu.DType;
import dev.dictum.gpu.HostTensor;
import dev.dictum.gpu.Weight;

/**
 * A weight on the CPU backend: matrices stay in the memory-mapped file in their own dtype (the
 * kernels read f16 and quantized blocks directly); vectors (biases, LayerNorm gains, positional
 * tables) are small and read on every row, so they are widened to f32 once at upload.
 */
final class CpuWeight implements Weight {
    private final HostTensor source;
    /** f32 copy of a vector or small table; null for matrices read in place. */
    final float[] dense;

    private CpuWeight(HostTensor source, float[] dense) {
        this.source = source;
        this.dense = dense;
    }

    static CpuWeight of(HostTensor t, boolean widen) {
        if (!widen) {
            return new CpuWeight(t, null);
        }
        long n = t.elementCount();
        float[] f = new float[Math.toIntExact(n)];
        long rows = t.rows();
        int perRow = Math.toIntExact(t.cols());
        for (long r = 0; r < rows; r++) {
            Dequant.row(t, r, f, Math.toIntExact(r * perRow));
        }
        return new CpuWeight(t, f);
    }

    private volatile DecoderPanels panels;

    /**
     * The decoder's layout of an F16 or Q8_0 matrix, built the first time a few-row product needs it
     * (see {@link GemvPanelsF16}, {@link GemvPanelsQ8_0}); null for other dtypes, which stream from
     * the file.
     */
    DecoderPanels decodePanels() {
        boolean q8 = source.dtype() == DType.Q8_0 && source.cols() % 32 == 0;
        if (source.dtype() != DType.F16 && !q8 || source.rank() != 2) {
            return null;
        }
        DecoderPanels p = panels;
        if (p == null) {
            synchronized (this) {
                p = panels;
                if (p == null) {
                    p = q8 ? GemvPanelsQ8_0.of(source) : GemvPanelsF16.of(source);
                    panels = p;
                    releaseFilePages();
                }
            }
        }
        return p;
    }

    /** The decoder's panels if a product has built them, else null; never builds them. */
    DecoderPanels builtPanels() {
        return panels;
    }

    /**
     * Row {@code r} of the matrix in f32: from the decoder's panels once they exist (the token embedding
     * of a matrix tied to the logits), so a long day of distinct tokens does not fault the file's copy
     * back in row by row; from the file before that and for other layouts.
     */
    void row(long r, float[] dst, int off) {
        DecoderPanels p = panels;
        if (p != null) {
            p.widenRow(Math.toIntExact(r), dst, off);
        } else {
            Dequant.row(source, r, dst, off);
        }
    }

    /**
     * Drops this matrix's pages of the mapped model file from the process's resident set (madvise
     * DONTNEED; the page cache keeps them): the decoder reads the panels from now on, so the file's
     * copy would only count twice against idle memory (a turbo-sized model's decoder: ~300 MB).
     * Products with more rows than the panels serve pack from the panels ({@link GemmPanels.FromDecoderPanels})
     * and embedding rows are read from them ({@link #row}), so the pages stay released.
     */
    private void releaseFilePages() {
        var seg = source.data();
        if (seg.isMapped()) {
            seg.unload();
        }
    }

    @Override
    public HostTensor source() {
        return source;
    }

    boolean isDense() {
        return dense != null;
    }

    DType dtype() {
        return source.dtype();
    }
}
