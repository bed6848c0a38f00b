package dev.dictum.gpu.cpu;

import static jdk.incubator.vector.VectorOperators.B2F;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Q8_0 (34-byte blocks: f16 d, 32 × int8): the bytes widened straight to float lanes; the row loop
 * is {@link GemvScaledBlocks}'s.
 */
final class GemvQ8_0 extends GemvScaledBlocks {

    static final GemvQ8_0 INSTANCE = new GemvQ8_0();
    private static final VectorSpecies<Float> F = CpuVectors.F;
    private static final int L = CpuVectors.L;

    private GemvQ8_0() {
        super(34);
    }

    /** Σ q·x over one block (unscaled). */
    @Override
    FloatVector block(MemorySegment w, long o, float[] x, int xi) {
        FloatVector s = ((FloatVector) ByteVector.fromMemorySegment(CpuVectors.B, w, o + 2, ByteOrder.LITTLE_ENDIAN)
                .convertShape(B2F, F, 0)).mul(FloatVector.fromArray(F, x, xi));
        for (int p = L; p < 32; p += L) {
            s = ((FloatVector) ByteVector.fromMemorySegment(CpuVectors.B, w, o + 2 + p, ByteOrder.LITTLE_ENDIAN)
                    .convertShape(B2F, F, 0)).fma(FloatVector.fromArray(F, x, xi + p), s);
        }
        return s;
    }
}
