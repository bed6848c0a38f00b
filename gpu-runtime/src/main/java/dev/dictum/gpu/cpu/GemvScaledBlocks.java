package dev.dictum.gpu.cpu;

import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The row loop shared by the formats whose blocks are 32 weights led by one f16 scale d (Q8_0,
 * Q4_0): per block s = Σ q·x in registers, then acc += d·s. Two blocks per iteration into separate
 * accumulators so the acc FMA chain never stalls. Each format supplies only its block's bytes and
 * its unscaled Σ q·x; a model uses one format, so the call to {@link #block} stays monomorphic
 * (at most bimorphic) and C2 inlines it.
 */
abstract sealed class GemvScaledBlocks extends GemvKernel permits GemvQ8_0, GemvQ4_0 {

    private static final VectorSpecies<Float> F = CpuVectors.F;

    private final int blockBytes;

    GemvScaledBlocks(int blockBytes) {
        this.blockBytes = blockBytes;
    }

    /** Σ q·x over the 32 weights of the block at {@code o} (its scale at {@code o}, unapplied). */
    abstract FloatVector block(MemorySegment w, long o, float[] x, int xi);

    @Override
    final float dot(MemorySegment w, long off, int k, float[] x, int xo) {
        int blocks = k / 32;
        long bb = blockBytes;
        FloatVector a0 = FloatVector.zero(F), a1 = a0;
        int b = 0;
        for (; b + 1 < blocks; b += 2) {
            long o = off + bb * b;
            a0 = block(w, o, x, xo + 32 * b).fma(FloatVector.broadcast(F, Dequant.f16At(w, o)), a0);
            a1 = block(w, o + bb, x, xo + 32 * b + 32).fma(FloatVector.broadcast(F, Dequant.f16At(w, o + bb)), a1);
        }
        if (b < blocks) {
            long o = off + bb * b;
            a0 = block(w, o, x, xo + 32 * b).fma(FloatVector.broadcast(F, Dequant.f16At(w, o)), a0);
        }
        return CpuVectors.sum(a0.add(a1));
    }
}
