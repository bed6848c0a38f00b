package dev.dictum.gpu.cpu;

import static jdk.incubator.vector.VectorOperators.B2F;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Q8_0 (34-byte blocks: f16 d, 32 × int8): per block s = Σ q·x in registers, then acc += d·s.
 * Two blocks per iteration into separate accumulators so the acc FMA chain never stalls.
 */
final class GemvQ8_0 extends GemvKernel {

    static final GemvQ8_0 INSTANCE = new GemvQ8_0();
    private static final VectorSpecies<Float> F = CpuVectors.F;
    private static final int L = CpuVectors.L;

    private GemvQ8_0() {
    }

    private static FloatVector q(MemorySegment w, long o) {
        return (FloatVector) ByteVector.fromMemorySegment(CpuVectors.B, w, o, ByteOrder.LITTLE_ENDIAN).convertShape(B2F, F, 0);
    }

    /** Σ q·x over one block (unscaled). */
    private static FloatVector block(MemorySegment w, long o, float[] x, int xi) {
        FloatVector s = q(w, o + 2).mul(FloatVector.fromArray(F, x, xi));
        for (int p = L; p < 32; p += L) {
            s = q(w, o + 2 + p).fma(FloatVector.fromArray(F, x, xi + p), s);
        }
        return s;
    }

    @Override
    float dot(MemorySegment w, long off, int k, float[] x, int xo) {
        int blocks = k / 32;
        FloatVector a0 = FloatVector.zero(F), a1 = a0;
        int b = 0;
        for (; b + 1 < blocks; b += 2) {
            long o = off + 34L * b;
            a0 = block(w, o, x, xo + 32 * b).fma(FloatVector.broadcast(F, Dequant.f16At(w, o)), a0);
            a1 = block(w, o + 34, x, xo + 32 * b + 32).fma(FloatVector.broadcast(F, Dequant.f16At(w, o + 34)), a1);
        }
        if (b < blocks) {
            long o = off + 34L * b;
            a0 = block(w, o, x, xo + 32 * b).fma(FloatVector.broadcast(F, Dequant.f16At(w, o)), a0);
        }
        return CpuVectors.sum(a0.add(a1));
    }
}
