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

    /**
     * {@code count} f16 values from byte offset {@code off} of {@code seg} into {@code dst[d..]}, widened
     * exactly. The loop and the conversion sit in one method, so no vector crosses a call: C2 inlines a
     * helper that takes or returns a vector only at a call site it judges hot, and where it did not (one JVM in
     * four of gpu-runtime's tests, session 18: a profile taken while earlier tests widened short rows) every
     * vector became a heap object, 2.65 MB per 150-row GEMM through its weight packing (KernelAllocationTest).
     * Only integer adds/shifts/ors and one multiply, no masks or blends (the masked form measured 5× slower in
     * the f16 GEMV).
     */
    static void widenF16(MemorySegment seg, long off, int count, float[] dst, int d) {
        int i = 0;
        for (; i <= count - CpuVectors.L; i += CpuVectors.L) {
            ShortVector h = ShortVector.fromMemorySegment(CpuVectors.S, seg, off + 2L * i, ByteOrder.LITTLE_ENDIAN);
            IntVector x = (IntVector) h.convertShape(S2I, CpuVectors.I, 0); // f16 bits in the low 16 of each lane
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
            finite.reinterpretAsInts().or(special).or(sign).reinterpretAsFloats().intoArray(dst, d + i);
        }
        for (; i < count; i++) {
            dst[d + i] = Dequant.f16At(seg, off + 2L * i);
        }
    }

    /** {@code count} bf16 values from byte offset {@code off} into {@code dst[d..]} (as {@link #widenF16}, one method). */
    static void widenBf16(MemorySegment seg, long off, int count, float[] dst, int d) {
        int i = 0;
        for (; i <= count - CpuVectors.L; i += CpuVectors.L) {
            ShortVector h = ShortVector.fromMemorySegment(CpuVectors.S, seg, off + 2L * i, ByteOrder.LITTLE_ENDIAN);
            ((IntVector) h.convertShape(S2I, CpuVectors.I, 0)).lanewise(LSHL, 16).reinterpretAsFloats()
                    .intoArray(dst, d + i); // bf16 is the top half of an f32
        }
        for (; i < count; i++) {
            dst[d + i] = Float.intBitsToFloat((seg.get(Dequant.I16, off + 2L * i) & 0xffff) << 16);
        }
    }
}
