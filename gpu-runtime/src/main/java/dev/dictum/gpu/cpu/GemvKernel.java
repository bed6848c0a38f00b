package dev.dictum.gpu.cpu;

import dev.dictum.gpu.DType;
import java.lang.foreign.MemorySegment;

/**
 * One weight row · one activation row, reading the row in its stored dtype straight from the
 * mapped segment (decode happens in registers, block by block; nothing is written back to memory).
 * One implementation per dtype family, each with its own loop so every call site stays
 * monomorphic and the Vector API code inlines fully.
 */
abstract sealed class GemvKernel permits GemvF32, GemvHalf, GemvI8, GemvScaledBlocks, GemvQ5 {

    /**
     * Σ_k W[row, k]·x[xOff + k] for the row whose first byte is at {@code off}. For I8 the row scale
     * is not applied (the caller multiplies once).
     */
    abstract float dot(MemorySegment w, long off, int k, float[] x, int xOff);

    static GemvKernel of(DType t) {
        return switch (t) {
            case F32 -> GemvF32.INSTANCE;
            case F16 -> GemvHalf.F16;
            case BF16 -> GemvHalf.BF16;
            case I8 -> GemvI8.INSTANCE;
            case Q8_0 -> GemvQ8_0.INSTANCE;
            case Q4_0 -> GemvQ4_0.INSTANCE;
            case Q5_0 -> GemvQ5.Q5_0;
            case Q5_1 -> GemvQ5.Q5_1;
        };
    }
}
