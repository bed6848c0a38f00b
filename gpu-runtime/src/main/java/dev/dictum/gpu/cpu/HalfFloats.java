package dev.dictum.gpu.cpu;

import static jdk.incubator.vector.VectorOperators.GE;
import static jdk.incubator.vector.VectorOperators.GT;
import static jdk.incubator.vector.VectorOperators.OR;
import static jdk.incubator.vector.VectorOperators.I2F;
import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LT;
import static jdk.incubator.vector.VectorOperators.S2I;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;

/**
 * Exact vectorised f16 → f32 and bf16 → f32 (the Vector API has no half-float conversion op).
 *
 * <p>f16: normal numbers only need their exponent re-biased (+112 = 127 − 15, i.e. add
 * 0x38000000 to the bits shifted into place); inf/NaN need the exponent forced to 255 (re-bias
 * twice); subnormals are {@code mantissa × 2⁻²⁴}, computed exactly by an int→float conversion and a
 * power-of-two multiply (avoids denormal float arithmetic, which is slow on some cores). NaNs are
 * quietened exactly as {@link Float#float16ToFloat} does, so the result is bit-identical to it.
 */
final class HalfFloats {

    private HalfFloats() {
    }

    /** {@link CpuVectors#L} f16 values at byte offset {@code off} of {@code seg}, widened exactly. */
    static FloatVector loadF16(MemorySegment seg, long off) {
        ShortVector h = ShortVector.fromMemorySegment(CpuVectors.S, seg, off, ByteOrder.LITTLE_ENDIAN);
        return f16ToF32((IntVector) h.convertShape(S2I, CpuVectors.I, 0));
    }

    /** {@link CpuVectors#L} bf16 values at byte offset {@code off}: bf16 is the top half of an f32. */
    static FloatVector loadBf16(MemorySegment seg, long off) {
        ShortVector h = ShortVector.fromMemorySegment(CpuVectors.S, seg, off, ByteOrder.LITTLE_ENDIAN);
        return ((IntVector) h.convertShape(S2I, CpuVectors.I, 0)).lanewise(LSHL, 16).reinterpretAsFloats();
    }

    /** Lanes hold f16 bit patterns in their low 16 bits (sign extension above is ignored). */
    static FloatVector f16ToF32(IntVector x) {
        IntVector em = x.and(0x7fff);
        IntVector sign = x.and(0x8000).lanewise(LSHL, 16);
        IntVector normal = em.lanewise(LSHL, 13).add(0x38000000);
        normal = normal.blend(normal.add(0x38000000), em.compare(GE, 0x7c00));
        FloatVector sub = ((FloatVector) em.convert(I2F, 0)).mul(0x1p-24f);
        IntVector bits = normal.blend(sub.reinterpretAsInts(), em.compare(LT, 0x400)).or(sign);
        // NaNs come out quiet, as Float.float16ToFloat and the F16C instruction make them.
        bits = bits.lanewise(OR, 0x00400000, em.compare(GT, 0x7c00));
        return bits.reinterpretAsFloats();
    }
}
