package dev.dictum.gpu.cpu;

import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LSHR;
import static jdk.incubator.vector.VectorOperators.S2I;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;

/**
 * Exact vectorised f16 → f32 and bf16 → f32 (the Vector API has no half-float conversion op).
 *
 * <p>f16: exponent and mantissa shifted into f32 position and multiplied by 2¹¹² (exact for
 * normals and subnormals); inf/NaN get the f32 exponent forced to 255 and NaNs are quietened
 * exactly as {@link Float#float16ToFloat} does, so the result is bit-identical to it (checked for
 * all 65536 patterns in the tests).
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

    /**
     * Lanes hold f16 bit patterns in their low 16 bits (sign extension above is ignored). Only
     * integer adds/shifts/ors and one multiply, no masks or blends (the masked form measured 5×
     * slower in the f16 GEMV).
     */
    static FloatVector f16ToF32(IntVector x) {
        IntVector em = x.and(0x7fff);
        IntVector sign = x.and(0x8000).lanewise(LSHL, 16);
        // Normal and subnormal alike: the f16 bits moved to f32 position are the value × 2⁻¹¹²
        // (exponent bias 127 vs 15); one exact power-of-two multiply restores it.
        FloatVector finite = em.lanewise(LSHL, 13).reinterpretAsFloats().mul(0x1p112f);
        // Exponent all ones (em ≥ 0x7c00): force the f32 exponent to 255; NaN (em > 0x7c00): set
        // the quiet bit, as Float.float16ToFloat does.
        IntVector inf = em.add(0x400).lanewise(LSHR, 15);
        IntVector nan = em.add(0x3ff).lanewise(LSHR, 15);
        IntVector special = inf.neg().and(0x7f800000).or(nan.lanewise(LSHL, 22));
        return finite.reinterpretAsInts().or(special).or(sign).reinterpretAsFloats();
    }
}
