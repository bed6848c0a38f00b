package dev.dictum.gpu.cpu;


import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.S2I;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorSpecies;

/** f16 and bf16 weights: widened exactly in registers ({@link HalfFloats}), then a vector dot. */
final class GemvHalf extends GemvKernel {

    static final GemvHalf F16 = new GemvHalf(true);
    static final GemvHalf BF16 = new GemvHalf(false);
    private static final VectorSpecies<Float> F = CpuVectors.F;
    private static final int L = CpuVectors.L;
    private static final ValueLayout.OfShort LE = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final boolean f16;

    private GemvHalf(boolean f16) {
        this.f16 = f16;
    }

    @Override
    float dot(MemorySegment w, long off, int k, float[] x, int xo) {
        return f16 ? dotF16(w, off, k, x, xo) : dotBf16(w, off, k, x, xo);
    }

    /**
     * The decoder's hottest loop (the vocabulary projection is an f16 matrix in most files), so the
     * widening is the shortest exact form for finite values: S2I sign-extends, so after the shift
     * by 13 bit 31 already holds the sign and only bits 28–30 (copies of it) need clearing; one
     * multiply by 2¹¹² then rebiases normals and subnormals alike. Infinite or NaN weights (a broken
     * model) come out as large finite values instead of inf/NaN; {@link HalfFloats} keeps them exact
     * for the other paths. Written out here rather than called: a separate method gets compiled on
     * its own, is then too big to inline, and every vector crossing the call is boxed (5× slower).
     */
    private static float dotF16(MemorySegment w, long off, int k, float[] x, int xo) {
        FloatVector a0 = FloatVector.zero(F), a1 = a0;
        int i = 0;
        for (; i <= k - 2 * L; i += 2 * L) {
            long o = off + 2L * i;
            IntVector h0 = (IntVector) ShortVector.fromMemorySegment(CpuVectors.S, w, o, ByteOrder.LITTLE_ENDIAN)
                    .convertShape(S2I, CpuVectors.I, 0);
            IntVector h1 = (IntVector) ShortVector.fromMemorySegment(CpuVectors.S, w, o + 2 * L, ByteOrder.LITTLE_ENDIAN)
                    .convertShape(S2I, CpuVectors.I, 0);
            FloatVector f0 = h0.lanewise(LSHL, 13).and(0x8FFFE000).reinterpretAsFloats().mul(0x1p112f);
            FloatVector f1 = h1.lanewise(LSHL, 13).and(0x8FFFE000).reinterpretAsFloats().mul(0x1p112f);
            a0 = f0.fma(FloatVector.fromArray(F, x, xo + i), a0);
            a1 = f1.fma(FloatVector.fromArray(F, x, xo + i + L), a1);
        }
        float s = CpuVectors.sum(a0.add(a1));
        for (; i < k; i++) {
            s += Float.float16ToFloat(w.get(LE, off + 2L * i)) * x[xo + i];
        }
        return s;
    }

    /** bf16 is the top half of an f32: widened by a shift, written out in the loop (no vector crosses a call). */
    private static float dotBf16(MemorySegment w, long off, int k, float[] x, int xo) {
        FloatVector a0 = FloatVector.zero(F), a1 = a0, a2 = a0, a3 = a0;
        int i = 0;
        for (; i <= k - 4 * L; i += 4 * L) {
            long o = off + 2L * i;
            a0 = ((IntVector) ShortVector.fromMemorySegment(CpuVectors.S, w, o, ByteOrder.LITTLE_ENDIAN)
                    .convertShape(S2I, CpuVectors.I, 0)).lanewise(LSHL, 16).reinterpretAsFloats()
                    .fma(FloatVector.fromArray(F, x, xo + i), a0);
            a1 = ((IntVector) ShortVector.fromMemorySegment(CpuVectors.S, w, o + 2 * L, ByteOrder.LITTLE_ENDIAN)
                    .convertShape(S2I, CpuVectors.I, 0)).lanewise(LSHL, 16).reinterpretAsFloats()
                    .fma(FloatVector.fromArray(F, x, xo + i + L), a1);
            a2 = ((IntVector) ShortVector.fromMemorySegment(CpuVectors.S, w, o + 4 * L, ByteOrder.LITTLE_ENDIAN)
                    .convertShape(S2I, CpuVectors.I, 0)).lanewise(LSHL, 16).reinterpretAsFloats()
                    .fma(FloatVector.fromArray(F, x, xo + i + 2 * L), a2);
            a3 = ((IntVector) ShortVector.fromMemorySegment(CpuVectors.S, w, o + 6 * L, ByteOrder.LITTLE_ENDIAN)
                    .convertShape(S2I, CpuVectors.I, 0)).lanewise(LSHL, 16).reinterpretAsFloats()
                    .fma(FloatVector.fromArray(F, x, xo + i + 3 * L), a3);
        }
        for (; i <= k - L; i += L) {
            a0 = ((IntVector) ShortVector.fromMemorySegment(CpuVectors.S, w, off + 2L * i, ByteOrder.LITTLE_ENDIAN)
                    .convertShape(S2I, CpuVectors.I, 0)).lanewise(LSHL, 16).reinterpretAsFloats()
                    .fma(FloatVector.fromArray(F, x, xo + i), a0);
        }
        float s = CpuVectors.sum(a0.add(a1).add(a2.add(a3)));
        for (; i < k; i++) {
            s += Float.intBitsToFloat((w.get(LE, off + 2L * i) & 0xffff) << 16) * x[xo + i];
        }
        return s;
    }
}
