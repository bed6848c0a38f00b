package dev.dictum.gpu.cpu;

import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LT;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;

/**
 * e^x for x ≤ 0 in float, as plain arithmetic: Cody–Waite reduction x = n·ln2 + r, a degree-7
 * polynomial for e^r (relative error ~1e-7), 2ⁿ from exponent bits. Not the Vector API's EXP: that
 * is SVML once C2 compiles a loop but Math.exp lane by lane before, and the two differ in the last
 * bit, so the same input gave different softmax weights early and late in a run. This is the same
 * IEEE operations in every tier, and the scalar and vector forms agree bit for bit.
 */
final class VectorMath {
    private static final float LOG2E = 1.44269504f;
    private static final float LN2_HI = 0.693145752f;
    private static final float LN2_LO = 1.42860677e-6f;
    /** 1.5·2²³: adding it rounds to an integer that then sits in the low mantissa bits. */
    private static final float ROUNDER = 12582912f;
    private static final int ROUNDER_BITS = Float.floatToRawIntBits(ROUNDER);
    private static final float EXP_MIN = -87f;

    private VectorMath() {
    }

    /**
     * {@code p[base + j] = exp(p[base + j] − shift)} for j &lt; n, in place; returns their sum (vector lanes
     * summed, then the tail): softmax's exponentials, for every attention. One method over arrays, not a
     * loop around {@link #exp(FloatVector)} in each caller: inlined into a large caller, that call
     * could miss C2's node budget, and every vector crossing it was boxed (KernelAllocationTest).
     */
    static float expShiftedSum(float[] p, int base, int n, float shift) {
        var f = CpuVectors.F;
        int l = CpuVectors.L;
        FloatVector m = FloatVector.broadcast(f, shift);
        FloatVector acc = FloatVector.zero(f);
        int j = 0;
        int bound = f.loopBound(n);
        for (; j < bound; j += l) {
            FloatVector e = exp(FloatVector.fromArray(f, p, base + j).sub(m));
            e.intoArray(p, base + j);
            acc = acc.add(e);
        }
        float sum = CpuVectors.sum(acc);
        for (; j < n; j++) {
            p[base + j] = exp(p[base + j] - shift);
            sum += p[base + j];
        }
        return sum;
    }

    /** e^x for x ≤ 0 in float; flushes to 0 below −87. */
    static float exp(float x) {
        float xc = Math.max(x, EXP_MIN);
        float t = Math.fma(xc, LOG2E, ROUNDER);
        float n = t - ROUNDER;
        float r = Math.fma(-n, LN2_HI, xc);
        r = Math.fma(-n, LN2_LO, r);
        float e = expPoly(r);
        int bits = (Float.floatToRawIntBits(t) - ROUNDER_BITS + 127) << 23;
        float y = e * Float.intBitsToFloat(bits);
        return x < EXP_MIN ? 0f : y;
    }

    static float expPoly(float r) {
        float p = Math.fma(1f / 5040, r, 1f / 720);
        p = Math.fma(p, r, 1f / 120);
        p = Math.fma(p, r, 1f / 24);
        p = Math.fma(p, r, 1f / 6);
        p = Math.fma(p, r, 0.5f);
        p = Math.fma(p, r, 1f);
        return Math.fma(p, r, 1f);
    }


    static FloatVector exp(FloatVector x) {
        var f = CpuVectors.F;
        FloatVector xc = x.max(EXP_MIN);
        FloatVector t = xc.fma(FloatVector.broadcast(f, LOG2E), FloatVector.broadcast(f, ROUNDER));
        FloatVector n = t.sub(ROUNDER);
        FloatVector r = n.neg().fma(FloatVector.broadcast(f, LN2_HI), xc);
        r = n.neg().fma(FloatVector.broadcast(f, LN2_LO), r);
        FloatVector e = FloatVector.broadcast(f, 1f / 5040).fma(r, FloatVector.broadcast(f, 1f / 720))
                .fma(r, FloatVector.broadcast(f, 1f / 120)).fma(r, FloatVector.broadcast(f, 1f / 24))
                .fma(r, FloatVector.broadcast(f, 1f / 6)).fma(r, FloatVector.broadcast(f, 0.5f))
                .fma(r, FloatVector.broadcast(f, 1f)).fma(r, FloatVector.broadcast(f, 1f));
        IntVector bits = ((IntVector) t.reinterpretAsInts()).sub(ROUNDER_BITS - 127).lanewise(LSHL, 23);
        FloatVector y = e.mul(bits.reinterpretAsFloats());
        return y.blend(0f, x.compare(LT, EXP_MIN));
    }
}
