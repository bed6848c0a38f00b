package dev.dictum.gpu.cpu;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector species all CPU kernels use, fixed at class load. Default: the preferred (widest)
 * shape; {@code -Ddictum.cpu.vectorBits=256} forces 256-bit (on Zen 4 512-bit FMAs are
 * double-pumped, so both widths have the same peak; 512 halves the instruction count).
 * Kept static final so C2 constant-folds lane counts and unrolls.
 */
final class CpuVectors {

    static final VectorSpecies<Float> F;
    static final VectorSpecies<Integer> I;
    /** Bytes species with as many lanes as {@link #F}: one quantised byte per float lane. */
    static final VectorSpecies<Byte> B;
    /** Shorts species with as many lanes as {@link #F}: one f16/bf16 value per float lane. */
    static final VectorSpecies<Short> S;
    static final int L;

    static {
        int bits = Integer.getInteger("dictum.cpu.vectorBits", FloatVector.SPECIES_PREFERRED.vectorBitSize());
        bits = Math.min(bits, FloatVector.SPECIES_PREFERRED.vectorBitSize());
        F = FloatVector.SPECIES_PREFERRED.withShape(VectorShape.forBitSize(bits)).check(float.class);
        L = F.length();
        I = IntVector.SPECIES_PREFERRED.withShape(VectorShape.forBitSize(bits)).check(int.class);
        B = ByteVector.SPECIES_PREFERRED.withShape(VectorShape.forBitSize(L * 8)).check(byte.class);
        S = ShortVector.SPECIES_PREFERRED.withShape(VectorShape.forBitSize(L * 16)).check(short.class);
    }

    /**
     * Butterfly partners lane i ↔ lane i ^ step, one constant per step (null where the vector has
     * fewer lanes). Separate static finals rather than an array walked in a loop: C2 only turns
     * {@code rearrange} into a permute instruction when it sees the shuffle as a constant; through
     * an array it fell back to the Java implementation, measured 25% of a decoder step.
     */
    static final VectorShuffle<Float> SWAP8 = L > 8 ? VectorShuffle.fromOp(F, lane -> lane ^ 8) : null;
    static final VectorShuffle<Float> SWAP4 = L > 4 ? VectorShuffle.fromOp(F, lane -> lane ^ 4) : null;
    static final VectorShuffle<Float> SWAP2 = VectorShuffle.fromOp(F, lane -> lane ^ 2);
    static final VectorShuffle<Float> SWAP1 = VectorShuffle.fromOp(F, lane -> lane ^ 1);

    private CpuVectors() {
    }

    /**
     * Sum of the lanes in a fixed pairwise order. {@code reduceLanes(ADD)} is not usable where
     * results must be reproducible: C2's intrinsic and the interpreter's fallback add in different
     * orders, so the same call gave different bits before and after JIT compilation (measured).
     * This butterfly is the same IEEE additions in every tier.
     */
    static float sum(FloatVector v) {
        if (L > 8) {
            v = v.add(v.rearrange(SWAP8));
        }
        if (L > 4) {
            v = v.add(v.rearrange(SWAP4));
        }
        v = v.add(v.rearrange(SWAP2));
        v = v.add(v.rearrange(SWAP1));
        return v.lane(0);
    }
}
