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

    /** 0..31: the bit of qh that each lane needs, loaded from offset {@code first}. */
    private static final int[] LANE_INDEX = new int[64];

    static {
        for (int i = 0; i < LANE_INDEX.length; i++) {
            LANE_INDEX[i] = i;
        }
    }

    private final boolean withMin;

    private GemvQ5(boolean withMin) {
        this.withMin = withMin;
    }

    /**
     * Σ q·x over one block, q re-centred by {@code bias} (16 for Q5_0, 0 for Q5_1). {@code qs} is the
     * nibbles' offset. Everything is written out in one method: split into helpers, C2 compiled
     * them separately, refused to inline the compiled bodies, and boxed the vectors (measured 6×).
     */
    private static FloatVector block(MemorySegment w, long qs, int qh, int bias, float[] x, int xi) {
        FloatVector s = FloatVector.zero(F);
        IntVector qhv = IntVector.broadcast(CpuVectors.I, qh);
        for (int p = 0; p < 16; p += L) {
            // Nibbles split in int lanes (no byte-lane shifts on x86).
            IntVector q = (IntVector) ByteVector.fromMemorySegment(CpuVectors.B, w, qs + p, ByteOrder.LITTLE_ENDIAN)
                    .convertShape(B2I, CpuVectors.I, 0);
            IntVector hiLo = qhv.lanewise(LSHR, IntVector.fromArray(CpuVectors.I, LANE_INDEX, p)).and(1).lanewise(LSHL, 4);
            IntVector hiHi = qhv.lanewise(LSHR, IntVector.fromArray(CpuVectors.I, LANE_INDEX, 16 + p)).and(1).lanewise(LSHL, 4);
            FloatVector lo = (FloatVector) q.and(0x0f).or(hiLo).sub(bias).convert(I2F, 0);
            FloatVector hi = (FloatVector) q.lanewise(LSHR, 4).and(0x0f).or(hiHi).sub(bias).convert(I2F, 0);
            s = lo.fma(FloatVector.fromArray(F, x, xi + p), s);
            s = hi.fma(FloatVector.fromArray(F, x, xi + 16 + p), s);
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
        FloatVector acc = FloatVector.zero(F);
        for (int b = 0; b < blocks; b++) {
            long o = off + 22L * b;
            acc = block(w, o + 6, w.get(I32, o + 2), 16, x, xo + 32 * b)
                    .fma(FloatVector.broadcast(F, Dequant.f16At(w, o)), acc);
        }
        return CpuVectors.sum(acc);
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
