package dev.dictum.gpu.cpu;

import static jdk.incubator.vector.VectorOperators.B2F;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/** CTranslate2 int8 weights: Σ q·x, the per-row scale applied once by the caller. */
final class GemvI8 extends GemvKernel {

    static final GemvI8 INSTANCE = new GemvI8();
    private static final VectorSpecies<Float> F = CpuVectors.F;
    private static final int L = CpuVectors.L;

    private GemvI8() {
    }

    /** The int8 weights widened in the loop, not by a helper: no vector crosses a call of ours. */
    @Override
    float dot(MemorySegment w, long off, int k, float[] x, int xo) {
        FloatVector a0 = FloatVector.zero(F), a1 = a0, a2 = a0, a3 = a0;
        int i = 0;
        for (; i <= k - 4 * L; i += 4 * L) {
            long o = off + i;
            a0 = ((FloatVector) ByteVector.fromMemorySegment(CpuVectors.B, w, o, ByteOrder.LITTLE_ENDIAN)
                    .convertShape(B2F, F, 0)).fma(FloatVector.fromArray(F, x, xo + i), a0);
            a1 = ((FloatVector) ByteVector.fromMemorySegment(CpuVectors.B, w, o + L, ByteOrder.LITTLE_ENDIAN)
                    .convertShape(B2F, F, 0)).fma(FloatVector.fromArray(F, x, xo + i + L), a1);
            a2 = ((FloatVector) ByteVector.fromMemorySegment(CpuVectors.B, w, o + 2 * L, ByteOrder.LITTLE_ENDIAN)
                    .convertShape(B2F, F, 0)).fma(FloatVector.fromArray(F, x, xo + i + 2 * L), a2);
            a3 = ((FloatVector) ByteVector.fromMemorySegment(CpuVectors.B, w, o + 3 * L, ByteOrder.LITTLE_ENDIAN)
                    .convertShape(B2F, F, 0)).fma(FloatVector.fromArray(F, x, xo + i + 3 * L), a3);
        }
        for (; i <= k - L; i += L) {
            a0 = ((FloatVector) ByteVector.fromMemorySegment(CpuVectors.B, w, off + i, ByteOrder.LITTLE_ENDIAN)
                    .convertShape(B2F, F, 0)).fma(FloatVector.fromArray(F, x, xo + i), a0);
        }
        float s = CpuVectors.sum(a0.add(a1).add(a2.add(a3)));
        for (; i < k; i++) {
            s += w.get(ValueLayout.JAVA_BYTE, off + i) * x[xo + i];
        }
        return s;
    }
}
