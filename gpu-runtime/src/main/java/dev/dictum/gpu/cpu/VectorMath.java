package dev.dictum.gpu.cpu;

import static jdk.incubator.vector.VectorOperators.GT;
import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LT;
import static jdk.incubator.vector.VectorOperators.MAX;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;

/**
 * e^x for x ≤ 0 in float, as plain arithmetic: Cody–Waite reduction x = n·ln2 + r, a degree-7
 * polynomial for e^r (relative error ~1e-7), 2ⁿ from exponent bits. Not the Vector API's EXP: that
 * is SVML once C2 compiles a loop but Math.exp lane by lane before, and the two differ in the last
 * bit, so the same input gave different softmax weights early and late in a run. This is the same
 * IEEE operations in every tier, and the scalar and vector forms agree bit for bit.
 * Public for the decoder's log-softmax over the vocabulary ({@link #sumExpShifted}).
 */
public final class VectorMath {
    /** Vectors summed in float lanes before their sum goes into the double total. */
    private static final int SUM_BLOCK_VECTORS = 64;
    /**
     * Where the log-sum-exp's exponentials of one block go (a thread's, 4 KiB at 512 bits): always a store, so
     * the loop has no branch on whether to store; a branch the profile had seen one way only is a trap that
     * throws compiled code away mid-pass the first time the other way comes (docs/architecture.md).
     */
    private static final ThreadLocal<float[]> SUM_SCRATCH =
            ThreadLocal.withInitial(() -> new float[SUM_BLOCK_VECTORS * CpuVectors.L]);
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
     * summed, then the tail): softmax's exponentials, for every attention.
     */
    static float expShiftedSum(float[] p, int base, int n, float shift) {
        return expShifted(p, base, n, shift, p, base);
    }

    /** {@code p[from + j] = exp(p[from + j])} for j &lt; n, in place: GELU's erfc ({@link Gelu#apply}). */
    static void expInPlace(float[] p, int from, int n) {
        expShifted(p, from, n, 0f, p, from);
    }

    /**
     * Σ exp(x[from + j] − shift) for j &lt; n, {@code x} unchanged, for shift ≥ every x (the row's maximum):
     * the log-sum-exp of a row of logits, which the decoder takes over the whole vocabulary for every beam
     * at every token (51 866 exponentials: ~250 µs a row with {@code Math.exp} in double on this project's
     * 2-core Xeon, most of a beam-5 step's host time). Blocks of {@value #SUM_BLOCK_VECTORS} vectors sum in
     * float and the blocks in double, so no float sum runs over more than {@value #SUM_BLOCK_VECTORS} vectors'
     * terms (relative error ~1e-6 at most) however long the row.
     */
    public static double sumExpShifted(float[] x, int from, int n, float shift) {
        int block = SUM_BLOCK_VECTORS * CpuVectors.L;
        float[] scratch = SUM_SCRATCH.get();
        double total = 0;
        for (int j = 0; j < n; j += block) {
            total += expShifted(x, from + j, Math.min(block, n - j), shift, scratch, 0);
        }
        return total;
    }

    /**
     * The one loop of vector exponentials: {@code e = exp(src[from + j] − shift)} for j &lt; n, stored at
     * {@code dst[to + j]} (dst may be src), summed (lanes in {@link CpuVectors#sum}'s order, then the
     * tail). Softmax (in place), the vocabulary's log-sum-exp (into a scratch block) and GELU's erfc (in place) all
     * come here: the one vector form of the exponential.
     *
     * <p>Why the polynomial and the lane sum are written out in this loop, not called: a vector passed to
     * or returned from a method C2 does not inline becomes a heap object, and C2 can decline any call of
     * ours. It declines a site it has no profile for (count −1 in LogCompilation: the caller ran at tier 2,
     * or never got a profile before the compile that inlined it) as cold, and a cold callee over 35 bytes
     * as "too big". Session 13's merged main in CI: this loop's calls of a vector {@code exp} and {@link CpuVectors#sum},
     * so judged, boxed 1.7-2.5 MB per 150-query attention (KernelAllocationTest). Here only the Vector
     * API's own methods, which the JDK forces inline, touch a vector, and every call into this method takes
     * arrays and scalars: whatever C2 decides about it, nothing is boxed.
     */
    private static float expShifted(float[] src, int from, int n, float shift, float[] dst, int to) {
        var f = CpuVectors.F;
        int l = CpuVectors.L;
        FloatVector m = FloatVector.broadcast(f, shift);
        FloatVector acc = FloatVector.zero(f);
        int j = 0;
        for (int bound = f.loopBound(n); j < bound; j += l) {
            FloatVector x = FloatVector.fromArray(f, src, from + j).sub(m);
            // exp(x): the same float operations in the same order as exp(float) below
            FloatVector xc = x.max(EXP_MIN);
            FloatVector t = xc.fma(FloatVector.broadcast(f, LOG2E), FloatVector.broadcast(f, ROUNDER));
            FloatVector nl = t.sub(ROUNDER);
            FloatVector r = nl.neg().fma(FloatVector.broadcast(f, LN2_HI), xc);
            r = nl.neg().fma(FloatVector.broadcast(f, LN2_LO), r);
            FloatVector e = FloatVector.broadcast(f, 1f / 5040).fma(r, FloatVector.broadcast(f, 1f / 720))
                    .fma(r, FloatVector.broadcast(f, 1f / 120)).fma(r, FloatVector.broadcast(f, 1f / 24))
                    .fma(r, FloatVector.broadcast(f, 1f / 6)).fma(r, FloatVector.broadcast(f, 0.5f))
                    .fma(r, FloatVector.broadcast(f, 1f)).fma(r, FloatVector.broadcast(f, 1f));
            IntVector bits = ((IntVector) t.reinterpretAsInts()).sub(ROUNDER_BITS - 127).lanewise(LSHL, 23);
            e = e.mul(bits.reinterpretAsFloats()).blend(0f, x.compare(LT, EXP_MIN));
            e.intoArray(dst, to + j);
            acc = acc.add(e);
        }
        // the lanes' sum, as CpuVectors.sum
        if (l > 8) {
            acc = acc.add(acc.rearrange(CpuVectors.SWAP8));
        }
        if (l > 4) {
            acc = acc.add(acc.rearrange(CpuVectors.SWAP4));
        }
        acc = acc.add(acc.rearrange(CpuVectors.SWAP2));
        acc = acc.add(acc.rearrange(CpuVectors.SWAP1));
        float sum = acc.lane(0);
        for (; j < n; j++) {
            float e = exp(src[from + j] - shift);
            dst[to + j] = e;
            sum += e;
        }
        return sum;
    }

    /**
     * The largest of x[from + j], j &lt; n ({@code -inf} for none): the shift of {@link #sumExpShifted}. Lanes
     * then their maximum, exact in any order; a NaN is not expected (logits) and may or may not win.
     */
    public static float max(float[] x, int from, int n) {
        var f = CpuVectors.F;
        int l = CpuVectors.L;
        FloatVector acc = FloatVector.broadcast(f, Float.NEGATIVE_INFINITY);
        int j = 0;
        for (int bound = f.loopBound(n); j < bound; j += l) {
            acc = acc.max(FloatVector.fromArray(f, x, from + j));
        }
        float max = acc.reduceLanes(MAX);
        for (; j < n; j++) {
            max = Math.max(max, x[from + j]);
        }
        return max;
    }

    /**
     * The first index i in [from, to) with x[i] &gt; threshold, or {@code to}: a top-k scan over a vocabulary
     * row skips in whole vectors what cannot enter its list (a NaN never does).
     */
    public static int firstAbove(float[] x, int from, int to, float threshold) {
        var f = CpuVectors.F;
        int l = CpuVectors.L;
        FloatVector th = FloatVector.broadcast(f, threshold);
        int j = from;
        for (int bound = from + f.loopBound(to - from); j < bound; j += l) {
            VectorMask<Float> above = FloatVector.fromArray(f, x, j).compare(GT, th);
            if (above.anyTrue()) {
                return j + above.firstTrue();
            }
        }
        for (; j < to; j++) {
            if (x[j] > threshold) {
                return j;
            }
        }
        return to;
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
}
