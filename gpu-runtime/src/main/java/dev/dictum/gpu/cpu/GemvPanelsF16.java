package dev.dictum.gpu.cpu;

import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.S2I;

import dev.dictum.gpu.HostTensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * An f16 weight matrix re-laid for decoding one token at a time: panels of {@link #P} output rows,
 * each stored column-major (for every input k, the panel's P values side by side), in native memory
 * off the Java heap.
 *
 * <p>Why: with the file's row-major layout every output needs a dot product and a horizontal sum,
 * and Whisper's rows are short (384 to 1280), so the sums and the per-row setup cost as much as the
 * multiply-adds; the mapped segment's loads also kept their bounds checks. In panels, P outputs
 * accumulate in registers as broadcast FMAs over k, with no horizontal sums, streaming the panel
 * front to back. Built once per weight, the first time the decoder uses it (the encoder's GEMM
 * packs from the file), so only the decoder's weights get a second copy: the layout the kernel
 * wants, made at load rather than paid for on every token.
 *
 * <p>Off the heap because it is the app's largest long-lived object (a turbo-sized model's decoder:
 * 316 MB): on the heap the collector keeps its free-ratio slack on top of it and copies it between
 * regions; in an automatic arena it is counted once and freed when the weight is dropped.
 */
final class GemvPanelsF16 implements DecoderPanels {
    /** Output rows per panel: four vectors of accumulators. */
    static final int P = 4 * CpuVectors.L;
    /**
     * How the f16 weights are widened: "blocks" ({@link #panelBlocks}), "bits" ({@link #panel}) or, by default,
     * "auto": the bit trick at 512 bits, and at 256 bits blocks for inputs shorter than {@link #BITS_FROM_K}
     * and the bit trick from there. From idle A/Bs alternating the two in separate JVMs (issue 21, 2 threads,
     * decoder ms per token over cache lengths 0-224, minimum per JVM, nothing else running; docs/benchmarks.md):
     * 512 bits (session 16, every size): toy-en blocks 1.79-2.54, bits 1.20-1.69; tiny blocks 2.93-3.10, bits
     * 2.36-2.72; base blocks 5.71-7.31, bits 3.93-4.75; small blocks 16.1-19.3, bits 11.4-16.0.
     * 256 bits: toy-en (k 256) blocks 1.85-1.92, bits 2.11-2.24; tiny (k 384) blocks 3.10-3.26, bits 3.53-3.77
     * (session 13); base (k 512) level, blocks 5.39-5.61, bits 5.33-5.54; small (k 768 and 3072) blocks
     * 17.2-20.7, bits 15.7-16.8 (session 16). (Session 13's "512 bits: blocks +10 %" came from toy-en alone.)
     */
    static final String WIDEN = System.getProperty("dictum.cpu.panels.widen", "auto");
    /** At 256 bits under "auto": the input length from which the bit trick widens (small's 768; base's 512 was level). */
    static final int BITS_FROM_K = 768;
    private static final VectorSpecies<Float> F = CpuVectors.F;
    private static final int L = CpuVectors.L;
    private static final ValueLayout.OfShort LE = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    private final MemorySegment panels;
    private final int n;
    private final int k;
    /** {@link #widenInBlocks} of this matrix's k, decided once. */
    private final boolean blocks;

    private GemvPanelsF16(MemorySegment panels, int n, int k) {
        this.panels = panels;
        this.n = n;
        this.k = k;
        this.blocks = widenInBlocks(k);
    }

    /** Re-lays an F16 matrix [n, k] (rows past n in the last panel are zero). */
    static GemvPanelsF16 of(HostTensor w) {
        int n = Math.toIntExact(w.rows());
        int k = Math.toIntExact(w.cols());
        int panelCount = (n + P - 1) / P;
        // zeroed by allocate; 64-byte aligned so every vector load is aligned
        MemorySegment p = Arena.ofAuto().allocate((long) panelCount * P * k * 2, 64);
        var seg = w.data();
        ComputePool.parallelFor(panelCount, panel -> {
            long base = (long) panel * P * k;
            for (int r = 0; r < P && panel * P + r < n; r++) {
                long row = (long) (panel * P + r) * k * 2;
                for (int c = 0; c < k; c++) {
                    p.set(ValueLayout.JAVA_SHORT, 2 * (base + (long) c * P + r), seg.get(LE, row + 2L * c));
                }
            }
        });
        return new GemvPanelsF16(p, n, k);
    }

    @Override
    public int outputsPerPanel() {
        return P;
    }

    @Override
    public void widenRow(int r, float[] dst, int off) {
        DecoderPanels.checkRow(r, n, k);
        long at = 2L * ((long) (r / P) * P * k + r % P); // bytes
        for (int c = 0; c < k; c++) {
            dst[off + c] = Float.float16ToFloat(panels.get(ValueLayout.JAVA_SHORT, at + 2L * c * P));
        }
    }

    /**
     * Each depth's outputs are one contiguous run of a panel: copied CH depths at a time into the
     * thread's scratch and widened by the plain {@link Float#float16ToFloat} loop C2 vectorises.
     */
    @Override
    public void widenColumns(int col, int width, int k0, int kc, float[] dst, int dOff, int stride) {
        DecoderPanels.checkColumns(col, width, k0, kc, n, k, P);
        int off = col % P;
        short[] hs = (short[]) SCRATCH.get()[0];
        long base = 2L * (col / P) * P * k; // bytes
        for (int d0 = 0; d0 < kc; d0 += CH) {
            int nd = Math.min(CH, kc - d0);
            MemorySegment.copy(panels, ValueLayout.JAVA_SHORT, base + 2L * (k0 + d0) * P, hs, 0, nd * P);
            for (int d = 0; d < nd; d++) {
                int to = dOff + (d0 + d) * stride;
                int from = d * P + off;
                for (int j = 0; j < width; j++) {
                    dst[to + j] = Float.float16ToFloat(hs[from + j]);
                }
            }
        }
    }

    /** C[i, :] = epilogue(A[i, :] · Wᵀ) for {@code m} rows of A. */
    @Override
    public void run(float[] a, int aOff, int lda, int m, float[] c, int cOff, int ldc, KernelEpilogue e) {
        run(a, aOff, lda, m, c, cOff, ldc, e, blocks);
    }

    /** Whether a matrix of input length {@code k} widens in blocks ({@link #WIDEN}). */
    static boolean widenInBlocks(int k) {
        return switch (WIDEN) {
            case "blocks" -> true;
            case "bits" -> false;
            default -> CpuVectors.L < 16 && k < BITS_FROM_K;
        };
    }

    /** {@link #run} with the widening chosen by the caller (the tests run both at either width). */
    void run(float[] a, int aOff, int lda, int m, float[] c, int cOff, int ldc, KernelEpilogue e, boolean blocks) {
        int panelCount = (n + P - 1) / P;
        int tasks = (long) n * k < 1 << 17 ? 1 : Math.min(panelCount, 8 * ComputePool.THREADS);
        int per = (panelCount + tasks - 1) / tasks;
        long small = blocks ? 0 : smallInputs(a, aOff, lda, m); // bit i: row i; no garbage per call
        ComputePool.parallelFor((panelCount + per - 1) / per, t -> {
            int p1 = Math.min(panelCount, (t + 1) * per);
            float[] acc = ACC.get();
            for (int p = t * per; p < p1; p++) {
                for (int i = 0; i < m; i++) {
                    if (blocks) {
                        panelBlocks(p, a, aOff + i * lda, c, cOff + i * ldc, i, e, acc);
                    } else {
                        panel(p, a, aOff + i * lda, c, cOff + i * ldc, i, e, i >= 64 || (small >>> i & 1) == 0, acc);
                    }
                }
            }
        });
    }

    /** Bit i set: every |x| of row i is below 2¹⁵ (×2¹¹² cannot overflow; see {@link #panel}). */
    private long smallInputs(float[] a, int aOff, int lda, int m) {
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
     * One panel for one row of A. The f16 weights are widened by bits only, in the loop (the result is the
     * weight ×2⁻¹¹², exact for every finite f16: S2I sign-extends, so after the shift by 13 bit 31 is the sign
     * and only bits 28–30, its copies, are cleared; the exponent is then the f16's rebased by −112 for normals
     * and subnormals alike; Inf/NaN weights, a broken model, come out large but finite), and the ×2¹¹² rebias
     * rides on the broadcast input, one multiply per input instead of one per weight vector: the inner loop is
     * load, widen, shift, mask, FMA. A row with an input of 2¹⁵ or more ({@code big}) takes ×2⁹² on the input
     * and ×2²⁰ on the result, so nothing overflows; for every other row the result is bit-identical to
     * widening first. The widening is written out four times rather than called: no vector crosses a call
     * here (docs/architecture.md, "no vector crosses a call"), and the accumulators leave through
     * {@code acc}, an array.
     */
    private void panel(int p, float[] a, int ao, float[] c, int co, int row, KernelEpilogue e, boolean big,
            float[] acc) {
        float in = big ? 0x1p92f : 0x1p112f;
        FloatVector c0 = FloatVector.zero(F);
        FloatVector c1 = c0;
        FloatVector c2 = c0;
        FloatVector c3 = c0;
        MemorySegment w = panels;
        long base = 2L * p * P * k; // bytes
        for (int j = 0; j < k; j++) {
            FloatVector x = FloatVector.broadcast(F, a[ao + j] * in);
            long o = base + 2L * j * P;
            c0 = ((IntVector) ShortVector.fromMemorySegment(CpuVectors.S, w, o, NATIVE).convertShape(S2I, CpuVectors.I, 0))
                    .lanewise(LSHL, 13).and(UNSCALED_MASK).reinterpretAsFloats().fma(x, c0);
            c1 = ((IntVector) ShortVector.fromMemorySegment(CpuVectors.S, w, o + 2 * L, NATIVE)
                    .convertShape(S2I, CpuVectors.I, 0)).lanewise(LSHL, 13).and(UNSCALED_MASK).reinterpretAsFloats()
                    .fma(x, c1);
            c2 = ((IntVector) ShortVector.fromMemorySegment(CpuVectors.S, w, o + 4 * L, NATIVE)
                    .convertShape(S2I, CpuVectors.I, 0)).lanewise(LSHL, 13).and(UNSCALED_MASK).reinterpretAsFloats()
                    .fma(x, c2);
            c3 = ((IntVector) ShortVector.fromMemorySegment(CpuVectors.S, w, o + 6 * L, NATIVE)
                    .convertShape(S2I, CpuVectors.I, 0)).lanewise(LSHL, 13).and(UNSCALED_MASK).reinterpretAsFloats()
                    .fma(x, c3);
        }
        if (big) {
            c0 = c0.mul(0x1p20f);
            c1 = c1.mul(0x1p20f);
            c2 = c2.mul(0x1p20f);
            c3 = c3.mul(0x1p20f);
        }
        c0.intoArray(acc, 0);
        c1.intoArray(acc, L);
        c2.intoArray(acc, 2 * L);
        c3.intoArray(acc, 3 * L);
        store(acc, c, co, p * P, n, row, e);
    }

    /** Keeps bit 31 (the sign) and bits 0–27 of an f16 shifted left by 13 (see {@link #panel}). */
    private static final int UNSCALED_MASK = 0x8FFFE000;

    /** Depths per widening block: CH × P f16 values (4 KiB at 512 bits) widened into an L1-resident scratch. */
    static final int CH = 64;
    /** Per thread: the widening block's f16 and f32 copies. */
    private static final ThreadLocal<Object[]> SCRATCH =
            ThreadLocal.withInitial(() -> new Object[] {new short[CH * P], new float[CH * P]});
    /** Per thread: one panel's accumulators on their way out to {@link #store} (the f16 and q8_0 panels'). */
    static final ThreadLocal<float[]> ACC = ThreadLocal.withInitial(() -> new float[P]);

    /**
     * One panel for one row of A, widened block by block: CH depths of the panel copied out of native
     * memory, widened by a plain loop over {@link Float#float16ToFloat} (C2 turns it into vcvtph2ps)
     * into an L1-resident f32 scratch, then an f32 broadcast-FMA pass over it. Exact widening, so no
     * rebias and no special case for large inputs.
     */
    private void panelBlocks(int p, float[] a, int ao, float[] c, int co, int row, KernelEpilogue e, float[] acc) {
        Object[] sc = SCRATCH.get();
        short[] hs = (short[]) sc[0];
        float[] fs = (float[]) sc[1];
        FloatVector c0 = FloatVector.zero(F);
        FloatVector c1 = c0;
        FloatVector c2 = c0;
        FloatVector c3 = c0;
        long base = 2L * p * P * k; // bytes
        for (int j0 = 0; j0 < k; j0 += CH) {
            int nj = Math.min(CH, k - j0);
            int cnt = nj * P;
            MemorySegment.copy(panels, ValueLayout.JAVA_SHORT, base + 2L * j0 * P, hs, 0, cnt);
            for (int i = 0; i < cnt; i++) {
                fs[i] = Float.float16ToFloat(hs[i]);
            }
            for (int j = 0; j < nj; j++) {
                FloatVector x = FloatVector.broadcast(F, a[ao + j0 + j]);
                int o = j * P;
                c0 = FloatVector.fromArray(F, fs, o).fma(x, c0);
                c1 = FloatVector.fromArray(F, fs, o + L).fma(x, c1);
                c2 = FloatVector.fromArray(F, fs, o + 2 * L).fma(x, c2);
                c3 = FloatVector.fromArray(F, fs, o + 3 * L).fma(x, c3);
            }
        }
        c0.intoArray(acc, 0);
        c1.intoArray(acc, L);
        c2.intoArray(acc, 2 * L);
        c3.intoArray(acc, 3 * L);
        store(acc, c, co, p * P, n, row, e);
    }

    /**
     * One panel's outputs ({@code acc}: P accumulators, columns col.. of C's row) through the epilogue; n: the
     * matrix's rows. Arrays in, not vectors (no vector crosses a call: a vector argument C2 did not inline
     * becomes a heap object per call).
     */
    static void store(float[] acc, float[] c, int co, int col, int n, int row, KernelEpilogue e) {
        if (col + P <= n && e.residual() == null && !e.gelu()) {
            float[] bias = e.bias();
            for (int v = 0; v < P; v += L) {
                FloatVector s = FloatVector.fromArray(F, acc, v);
                if (bias != null) {
                    s = s.add(FloatVector.fromArray(F, bias, col + v));
                }
                s.intoArray(c, co + col + v);
            }
            return;
        }
        for (int l = 0; l < P && col + l < n; l++) {
            c[co + col + l] = e.apply(acc[l], row, col + l);
        }
    }
}
