package dev.dictum.gpu.cpu;

import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.S2I;

import dev.dictum.gpu.HostTensor;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * An f16 weight matrix re-laid for decoding one token at a time: panels of {@link #P} output rows,
 * each stored column-major (for every input k, the panel's P values side by side), in a heap
 * {@code short[]}.
 *
 * <p>Why: with the file's row-major layout every output needs a dot product and a horizontal sum,
 * and Whisper's rows are short (384 to 1280), so the sums and the per-row setup cost as much as the
 * multiply-adds; the mapped segment's loads also kept their bounds checks. In panels, P outputs
 * accumulate in registers as broadcast FMAs over k, with no horizontal sums, streaming the panel
 * front to back. Built once per weight, the first time the decoder uses it (the encoder's GEMM
 * packs from the file), so only the decoder's weights get a second copy: the layout the kernel
 * wants, made at load rather than paid for on every token.
 */
final class GemvPanelsF16 {
    /** Output rows per panel: four vectors of accumulators. */
    static final int P = 4 * CpuVectors.L;
    private static final VectorSpecies<Float> F = CpuVectors.F;
    private static final int L = CpuVectors.L;
    private static final ValueLayout.OfShort LE = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final short[] panels;
    private final int n;
    private final int k;

    private GemvPanelsF16(short[] panels, int n, int k) {
        this.panels = panels;
        this.n = n;
        this.k = k;
    }

    /** Re-lays an F16 matrix [n, k] (rows past n in the last panel are zero). */
    static GemvPanelsF16 of(HostTensor w) {
        int n = Math.toIntExact(w.rows());
        int k = Math.toIntExact(w.cols());
        int panelCount = (n + P - 1) / P;
        short[] p = new short[Math.toIntExact((long) panelCount * P * k)];
        var seg = w.data();
        ComputePool.parallelFor(panelCount, panel -> {
            int base = panel * P * k;
            for (int r = 0; r < P && panel * P + r < n; r++) {
                long row = (long) (panel * P + r) * k * 2;
                for (int c = 0; c < k; c++) {
                    p[base + c * P + r] = seg.get(LE, row + 2L * c);
                }
            }
        });
        return new GemvPanelsF16(p, n, k);
    }

    /** C[i, :] = epilogue(A[i, :] · Wᵀ) for {@code m} rows of A. */
    void run(float[] a, int aOff, int lda, int m, float[] c, int cOff, int ldc, KernelEpilogue e) {
        int panelCount = (n + P - 1) / P;
        int tasks = (long) n * k < 1 << 17 ? 1 : Math.min(panelCount, 8 * ComputePool.THREADS);
        int per = (panelCount + tasks - 1) / tasks;
        long prescaled = prescalable(a, aOff, lda, m); // bit i: row i; no garbage per call
        ComputePool.parallelFor((panelCount + per - 1) / per, t -> {
            int p1 = Math.min(panelCount, (t + 1) * per);
            for (int p = t * per; p < p1; p++) {
                for (int i = 0; i < m; i++) {
                    if (i < 64 && (prescaled >>> i & 1) != 0) {
                        panelPrescaled(p, a, aOff + i * lda, c, cOff + i * ldc, i, e);
                    } else {
                        panel(p, a, aOff + i * lda, c, cOff + i * ldc, i, e);
                    }
                }
            }
        });
    }

    /**
     * Rows whose every |x| is below 2¹⁵ take {@link #panelPrescaled}: ×2¹¹² then cannot overflow, and
     * the product is the same real number, so results are bit-identical to {@link #panel}.
     */
    private long prescalable(float[] a, int aOff, int lda, int m) {
        long ok = 0;
        for (int i = 0; i < Math.min(m, 64); i++) {
            FloatVector max = FloatVector.zero(F);
            int o = aOff + i * lda;
            int j = 0;
            for (; j + L <= k; j += L) {
                max = max.max(FloatVector.fromArray(F, a, o + j).abs());
            }
            float mx = max.reduceLanes(jdk.incubator.vector.VectorOperators.MAX);
            for (; j < k; j++) {
                mx = Math.max(mx, Math.abs(a[o + j]));
            }
            if (mx < 0x1p15f) { // false for NaN too
                ok |= 1L << i;
            }
        }
        return ok;
    }

    /**
     * As {@link #panel}, with the f16 rebias (×2¹¹²) moved from every weight vector onto the broadcast
     * input: one multiply per input instead of one per weight vector (four), the decoder's inner loop
     * being load, widen, shift, mask, FMA.
     */
    private void panelPrescaled(int p, float[] a, int ao, float[] c, int co, int row, KernelEpilogue e) {
        FloatVector c0 = FloatVector.zero(F);
        FloatVector c1 = c0;
        FloatVector c2 = c0;
        FloatVector c3 = c0;
        short[] w = panels;
        int base = p * P * k;
        for (int j = 0; j < k; j++) {
            FloatVector x = FloatVector.broadcast(F, a[ao + j] * 0x1p112f);
            int o = base + j * P;
            c0 = halfUnscaled(w, o).fma(x, c0);
            c1 = halfUnscaled(w, o + L).fma(x, c1);
            c2 = halfUnscaled(w, o + 2 * L).fma(x, c2);
            c3 = halfUnscaled(w, o + 3 * L).fma(x, c3);
        }
        int col = p * P;
        store(c0, c, co, col, row, e);
        store(c1, c, co, col + L, row, e);
        store(c2, c, co, col + 2 * L, row, e);
        store(c3, c, co, col + 3 * L, row, e);
    }

    /** f16 → f32 bits ×2⁻¹¹² (see {@link #half}); exact for every finite f16. */
    private static FloatVector halfUnscaled(short[] w, int o) {
        IntVector h = (IntVector) ShortVector.fromArray(CpuVectors.S, w, o).convertShape(S2I, CpuVectors.I, 0);
        return h.lanewise(LSHL, 13).and(0x8FFFE000).reinterpretAsFloats();
    }

    private void panel(int p, float[] a, int ao, float[] c, int co, int row, KernelEpilogue e) {
        FloatVector c0 = FloatVector.zero(F);
        FloatVector c1 = c0;
        FloatVector c2 = c0;
        FloatVector c3 = c0;
        short[] w = panels;
        int base = p * P * k;
        for (int j = 0; j < k; j++) {
            FloatVector x = FloatVector.broadcast(F, a[ao + j]);
            int o = base + j * P;
            // f16 → f32 for finite values: S2I sign-extends, so after the shift by 13 bit 31 is the
            // sign and only bits 28–30 (its copies) are cleared; ×2¹¹² rebiases normals and
            // subnormals alike. (Inf/NaN weights, a broken model, come out large but finite.)
            c0 = half(w, o).fma(x, c0);
            c1 = half(w, o + L).fma(x, c1);
            c2 = half(w, o + 2 * L).fma(x, c2);
            c3 = half(w, o + 3 * L).fma(x, c3);
        }
        int col = p * P;
        store(c0, c, co, col, row, e);
        store(c1, c, co, col + L, row, e);
        store(c2, c, co, col + 2 * L, row, e);
        store(c3, c, co, col + 3 * L, row, e);
    }

    private static FloatVector half(short[] w, int o) {
        IntVector h = (IntVector) ShortVector.fromArray(CpuVectors.S, w, o).convertShape(S2I, CpuVectors.I, 0);
        return h.lanewise(LSHL, 13).and(0x8FFFE000).reinterpretAsFloats().mul(0x1p112f);
    }

    private void store(FloatVector v, float[] c, int co, int col, int row, KernelEpilogue e) {
        if (col + L <= n && e.residual() == null && !e.gelu()) {
            if (e.bias() != null) {
                v = v.add(FloatVector.fromArray(F, e.bias(), col));
            }
            v.intoArray(c, co + col);
            return;
        }
        float[] lanes = v.toArray();
        for (int l = 0; l < L && col + l < n; l++) {
            c[co + col + l] = e.apply(lanes[l], row, col + l);
        }
    }
}
