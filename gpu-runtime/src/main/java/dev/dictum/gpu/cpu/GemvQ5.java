package dev.dictum.gpu.cpu;

import static jdk.incubator.vector.VectorOperators.B2I;
import static jdk.incubator.vector.VectorOperators.I2F;
import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LSHR;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Q5_0 (22 bytes: f16 d, u32 qh, 16 nibble bytes; x = d·(q − 16)) and Q5_1 (24 bytes: f16 d,
 * f16 m, u32 qh, nibbles; x = d·q + m). Bit j of qh is bit 4 of value j: it is moved into place
 * with a per-lane variable shift of the broadcast qh (lane i of part p shifts by p + i).
 * Q5_1 splits Σ(d·q + m)·x into d·Σq·x + m·Σx so the block's min costs one extra FMA chain.
 */
final class GemvQ5 extends GemvKernel {

    static final GemvQ5 Q5_0 = new GemvQ5(false);
    static final GemvQ5 Q5_1 = new GemvQ5(true);
    private static final VectorSpecies<Float> F = CpuVectors.F;
    private static final int L = CpuVectors.L;
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final boolean withMin;

    private GemvQ5(boolean withMin) {
        this.withMin = withMin;
    }

    /** The 5-bit values of lanes [first, first + L) of a block, as floats, minus {@code bias}. */
    private static FloatVector values(IntVector nibbles, int qh, int first, int bias) {
        IntVector shift = IntVector.zero(CpuVectors.I).addIndex(1).add(first);
        IntVector high = IntVector.broadcast(CpuVectors.I, qh).lanewise(LSHR, shift).and(1).lanewise(LSHL, 4);
        return (FloatVector) nibbles.or(high).sub(bias).convert(I2F, 0);
    }

    /** Σ q·x over one block, q already re-centred for Q5_0. {@code qs} is the nibbles' offset. */
    private static FloatVector block(MemorySegment w, long qs, int qh, int bias, float[] x, int xi) {
        FloatVector s = FloatVector.zero(F);
        for (int p = 0; p < 16; p += L) {
            ByteVector b = ByteVector.fromMemorySegment(CpuVectors.B, w, qs + p, ByteOrder.LITTLE_ENDIAN);
            IntVector lo = (IntVector) b.and((byte) 0x0f).convertShape(B2I, CpuVectors.I, 0);
            IntVector hi = (IntVector) b.lanewise(LSHR, 4).convertShape(B2I, CpuVectors.I, 0);
            s = values(lo, qh, p, bias).fma(FloatVector.fromArray(F, x, xi + p), s);
            s = values(hi, qh, 16 + p, bias).fma(FloatVector.fromArray(F, x, xi + 16 + p), s);
        }
        return s;
    }

    private static FloatVector sum(float[] x, int xi) {
        FloatVector s = FloatVector.fromArray(F, x, xi);
        for (int p = L; p < 32; p += L) {
            s = s.add(FloatVector.fromArray(F, x, xi + p));
        }
        return s;
    }

    @Override
    float dot(MemorySegment w, long off, int k, float[] x, int xo) {
        return withMin ? dotQ5_1(w, off, k, x, xo) : dotQ5_0(w, off, k, x, xo);
    }

    private static float dotQ5_0(MemorySegment w, long off, int k, float[] x, int xo) {
        int blocks = k / 32;
        FloatVector a0 = FloatVector.zero(F), a1 = a0;
        int b = 0;
        for (; b + 1 < blocks; b += 2) {
            long o = off + 22L * b;
            a0 = block(w, o + 6, w.get(I32, o + 2), 16, x, xo + 32 * b).fma(FloatVector.broadcast(F, Dequant.f16At(w, o)), a0);
            a1 = block(w, o + 28, w.get(I32, o + 24), 16, x, xo + 32 * b + 32).fma(FloatVector.broadcast(F, Dequant.f16At(w, o + 22)), a1);
        }
        if (b < blocks) {
            long o = off + 22L * b;
            a0 = block(w, o + 6, w.get(I32, o + 2), 16, x, xo + 32 * b).fma(FloatVector.broadcast(F, Dequant.f16At(w, o)), a0);
        }
        return CpuVectors.sum(a0.add(a1));
    }

    private static float dotQ5_1(MemorySegment w, long off, int k, float[] x, int xo) {
        int blocks = k / 32;
        FloatVector acc = FloatVector.zero(F), accMin = acc;
        for (int b = 0; b < blocks; b++) {
            long o = off + 24L * b;
            int xi = xo + 32 * b;
            acc = block(w, o + 8, w.get(I32, o + 4), 0, x, xi).fma(FloatVector.broadcast(F, Dequant.f16At(w, o)), acc);
            accMin = sum(x, xi).fma(FloatVector.broadcast(F, Dequant.f16At(w, o + 2)), accMin);
        }
        return CpuVectors.sum(acc.add(accMin));
    }
}
