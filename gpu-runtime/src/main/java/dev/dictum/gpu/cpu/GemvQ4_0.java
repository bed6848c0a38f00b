package dev.dictum.gpu.cpu;

import static jdk.incubator.vector.VectorOperators.B2I;
import static jdk.incubator.vector.VectorOperators.I2F;
import static jdk.incubator.vector.VectorOperators.LSHR;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Q4_0 (18-byte blocks: f16 d, 16 bytes of nibbles; low nibbles are values 0..15, high 16..31):
 * nibbles widened to int lanes, split and re-centred (−8), converted to floats, s = Σ q·x, acc += d·s.
 */
final class GemvQ4_0 extends GemvScaledBlocks {

    static final GemvQ4_0 INSTANCE = new GemvQ4_0();
    private static final VectorSpecies<Float> F = CpuVectors.F;
    private static final int L = CpuVectors.L;

    private GemvQ4_0() {
        super(18);
    }

    @Override
    FloatVector block(MemorySegment w, long o, float[] x, int xi) {
        FloatVector s = FloatVector.zero(F);
        for (int p = 0; p < 16; p += L) {
            // Nibbles are split in int lanes: x86 has no byte-lane shift, so C2 would not intrinsify it.
            IntVector q = (IntVector) ByteVector.fromMemorySegment(CpuVectors.B, w, o + 2 + p, ByteOrder.LITTLE_ENDIAN)
                    .convertShape(B2I, CpuVectors.I, 0);
            FloatVector lo = (FloatVector) q.and(0x0f).sub(8).convert(I2F, 0);
            FloatVector hi = (FloatVector) q.lanewise(LSHR, 4).and(0x0f).sub(8).convert(I2F, 0);
            s = lo.fma(FloatVector.fromArray(F, x, xi + p), s);
            s = hi.fma(FloatVector.fromArray(F, x, xi + 16 + p), s);
        }
        return s;
    }
}
