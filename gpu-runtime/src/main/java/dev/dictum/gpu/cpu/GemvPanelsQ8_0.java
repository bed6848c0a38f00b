package dev.dictum.gpu.cpu;

import static jdk.incubator.vector.VectorOperators.B2F;

import dev.dictum.gpu.DType;
import dev.dictum.gpu.HostTensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * A Q8_0 matrix re-laid for decoding, as {@link GemvPanelsF16} does for f16: panels of {@link #P}
 * output rows; per 32-deep block, the P rows' scales as f32 (widened once here, not per token),
 * then the block's 32 depths, each the P rows' int8 values side by side. Per block and row of A:
 * s = Σ_j q_j · x_j as broadcast FMAs over the block (the int8 widened in registers), then
 * acc += d · s, the same two steps as {@link GemvScaledBlocks} without its horizontal sums. 36 bytes
 * per 32 weights (the file's 34 plus the widened scale) against f16's 64: the decoder's q8_0 bound.
 * Off the heap, freed with the weight (see {@link GemvPanelsF16} for why).
 */
final class GemvPanelsQ8_0 implements DecoderPanels {
    static final int P = 4 * CpuVectors.L;
    private static final VectorSpecies<Float> F = CpuVectors.F;
    private static final int L = CpuVectors.L;
    private static final ValueLayout.OfShort LE16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    /** Bytes of one panel's block: P scales, then 32 × P values. */
    private static final int BLOCK = 4 * P + 32 * P;

    private final MemorySegment panels;
    private final int n;
    private final int k;

    private GemvPanelsQ8_0(MemorySegment panels, int n, int k) {
        this.panels = panels;
        this.n = n;
        this.k = k;
    }

    /** Re-lays a Q8_0 matrix [n, k] (k a multiple of 32; rows past n in the last panel are zero). */
    static GemvPanelsQ8_0 of(HostTensor w) {
        if (w.dtype() != DType.Q8_0 || w.rank() != 2 || w.cols() % 32 != 0) {
            throw new IllegalArgumentException("Q8_0 panels need a Q8_0 matrix with a multiple of 32 columns, not "
                    + w.dtype() + " " + w.rows() + "×" + w.cols());
        }
        int n = Math.toIntExact(w.rows());
        int k = Math.toIntExact(w.cols());
        int blocks = k / 32;
        int panelCount = (n + P - 1) / P;
        MemorySegment p = Arena.ofAuto().allocate((long) panelCount * blocks * BLOCK, 64);
        MemorySegment src = w.data();
        long rowBytes = 34L * blocks;
        ComputePool.parallelFor(panelCount, panel -> {
            for (int r = 0; r < P && panel * P + r < n; r++) {
                long row = (long) (panel * P + r) * rowBytes;
                for (int b = 0; b < blocks; b++) {
                    long from = row + 34L * b;
                    long to = ((long) panel * blocks + b) * BLOCK;
                    p.set(ValueLayout.JAVA_FLOAT, to + 4L * r, Float.float16ToFloat(src.get(LE16, from)));
                    for (int j = 0; j < 32; j++) {
                        p.set(ValueLayout.JAVA_BYTE, to + 4L * P + (long) j * P + r, src.get(ValueLayout.JAVA_BYTE, from + 2 + j));
                    }
                }
            }
        });
        return new GemvPanelsQ8_0(p, n, k);
    }

    @Override
    public void run(float[] a, int aOff, int lda, int m, float[] c, int cOff, int ldc, KernelEpilogue e) {
        int panelCount = (n + P - 1) / P;
        int tasks = (long) n * k < 1 << 17 ? 1 : Math.min(panelCount, 8 * ComputePool.THREADS);
        int per = (panelCount + tasks - 1) / tasks;
        ComputePool.parallelFor((panelCount + per - 1) / per, t -> {
            int p1 = Math.min(panelCount, (t + 1) * per);
            float[] acc = GemvPanelsF16.ACC.get();
            for (int p = t * per; p < p1; p++) {
                for (int i = 0; i < m; i++) {
                    panel(p, a, aOff + i * lda, c, cOff + i * ldc, i, e, acc);
                }
            }
        });
    }

    @Override
    public int outputsPerPanel() {
        return P;
    }

    @Override
    public void widenRow(int r, float[] dst, int off) {
        DecoderPanels.checkRow(r, n, k);
        int rr = r % P;
        int blocks = k / 32;
        for (int b = 0; b < blocks; b++) {
            long blk = ((long) (r / P) * blocks + b) * BLOCK;
            float d = panels.get(ValueLayout.JAVA_FLOAT, blk + 4L * rr);
            for (int j = 0; j < 32; j++) {
                dst[off + 32 * b + j] = d * panels.get(ValueLayout.JAVA_BYTE, blk + 4L * P + (long) j * P + rr);
            }
        }
    }

    /** d·q as {@link Dequant} computes it from the file: the f16 scale widened, times the int8. */
    @Override
    public void widenColumns(int col, int width, int k0, int kc, float[] dst, int dOff, int stride) {
        DecoderPanels.checkColumns(col, width, k0, kc, n, k, P);
        int off = col % P;
        long panel = (long) (col / P) * (k / 32) * BLOCK;
        for (int kk = 0; kk < kc; kk++) {
            int depth = k0 + kk;
            long blk = panel + (long) (depth / 32) * BLOCK;
            long q = blk + 4L * P + (long) (depth % 32) * P + off;
            int to = dOff + kk * stride;
            for (int j = 0; j < width; j++) {
                dst[to + j] = panels.get(ValueLayout.JAVA_FLOAT, blk + 4L * (off + j)) * panels.get(ValueLayout.JAVA_BYTE, q + j);
            }
        }
    }

    /**
     * One panel for one row of A. The int8 weights are widened in the loop, not by a helper: no vector crosses
     * a call (see {@link GemvPanelsF16#store}); the accumulators leave through the thread's {@code acc}
     * ({@link GemvPanelsF16#ACC}).
     */
    private void panel(int p, float[] a, int ao, float[] c, int co, int row, KernelEpilogue e, float[] acc) {
        FloatVector c0 = FloatVector.zero(F), c1 = c0, c2 = c0, c3 = c0;
        MemorySegment w = panels;
        int blocks = k / 32;
        long base = (long) p * blocks * BLOCK;
        for (int b = 0; b < blocks; b++) {
            long blk = base + (long) b * BLOCK;
            FloatVector s0 = FloatVector.zero(F), s1 = s0, s2 = s0, s3 = s0;
            int xo = ao + 32 * b;
            for (int j = 0; j < 32; j++) {
                FloatVector x = FloatVector.broadcast(F, a[xo + j]);
                long o = blk + 4L * P + (long) j * P;
                s0 = ((FloatVector) ByteVector.fromMemorySegment(CpuVectors.B, w, o, NATIVE).convertShape(B2F, F, 0))
                        .fma(x, s0);
                s1 = ((FloatVector) ByteVector.fromMemorySegment(CpuVectors.B, w, o + L, NATIVE).convertShape(B2F, F, 0))
                        .fma(x, s1);
                s2 = ((FloatVector) ByteVector.fromMemorySegment(CpuVectors.B, w, o + 2 * L, NATIVE)
                        .convertShape(B2F, F, 0)).fma(x, s2);
                s3 = ((FloatVector) ByteVector.fromMemorySegment(CpuVectors.B, w, o + 3 * L, NATIVE)
                        .convertShape(B2F, F, 0)).fma(x, s3);
            }
            c0 = s0.fma(FloatVector.fromMemorySegment(F, w, blk, NATIVE), c0);
            c1 = s1.fma(FloatVector.fromMemorySegment(F, w, blk + 4L * L, NATIVE), c1);
            c2 = s2.fma(FloatVector.fromMemorySegment(F, w, blk + 8L * L, NATIVE), c2);
            c3 = s3.fma(FloatVector.fromMemorySegment(F, w, blk + 12L * L, NATIVE), c3);
        }
        c0.intoArray(acc, 0);
        c1.intoArray(acc, L);
        c2.intoArray(acc, 2 * L);
        c3.intoArray(acc, 3 * L);
        GemvPanelsF16.store(acc, c, co, p * P, n, row, e);
    }
}
