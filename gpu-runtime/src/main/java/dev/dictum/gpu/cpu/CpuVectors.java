package dev.dictum.gpu.cpu;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorShape;
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

    private CpuVectors() {
    }
}
