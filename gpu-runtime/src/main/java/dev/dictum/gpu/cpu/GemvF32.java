package dev.dictum.gpu.cpu;


import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/** f32 weights: plain vector dot, four accumulators (FMA latency 4 × issue 1/cycle). */
final class GemvF32 extends GemvKernel {

    static final GemvF32 INSTANCE = new GemvF32();
    private static final VectorSpecies<Float> F = CpuVectors.F;
    private static final int L = CpuVectors.L;
    private static final ValueLayout.OfFloat LE = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private GemvF32() {
    }

    @Override
    float dot(MemorySegment w, long off, int k, float[] x, int xo) {
        FloatVector a0 = FloatVector.zero(F), a1 = a0, a2 = a0, a3 = a0;
        int i = 0;
        for (; i <= k - 4 * L; i += 4 * L) {
            long o = off + 4L * i;
            a0 = FloatVector.fromMemorySegment(F, w, o, ByteOrder.LITTLE_ENDIAN).fma(FloatVector.fromArray(F, x, xo + i), a0);
            a1 = FloatVector.fromMemorySegment(F, w, o + 4 * L, ByteOrder.LITTLE_ENDIAN).fma(FloatVector.fromArray(F, x, xo + i + L), a1);
            a2 = FloatVector.fromMemorySegment(F, w, o + 8 * L, ByteOrder.LITTLE_ENDIAN).fma(FloatVector.fromArray(F, x, xo + i + 2 * L), a2);
            a3 = FloatVector.fromMemorySegment(F, w, o + 12 * L, ByteOrder.LITTLE_ENDIAN).fma(FloatVector.fromArray(F, x, xo + i + 3 * L), a3);
        }
        for (; i <= k - L; i += L) {
            a0 = FloatVector.fromMemorySegment(F, w, off + 4L * i, ByteOrder.LITTLE_ENDIAN).fma(FloatVector.fromArray(F, x, xo + i), a0);
        }
        float s = CpuVectors.sum(a0.add(a1).add(a2.add(a3)));
        for (; i < k; i++) {
            s += w.get(LE, off + 4L * i) * x[xo + i];
        }
        return s;
    }
}
