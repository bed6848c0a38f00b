package dev.dictum.gpu.cpu;

import static jdk.incubator.vector.VectorOperators.ABS;
import static jdk.incubator.vector.VectorOperators.LT;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;

/**
 * Exact (erf) GELU, as PyTorch's default {@code F.gelu}: x·Φ(x), Φ(x) = ½·erfc(−x/√2), in float.
 *
 * <p>Why float and this formula: GELU runs on every element the encoder's MLP produces, inside
 * the GEMM's store; it must be a handful of FMAs that C2 keeps in vector registers. A double
 * version (widen, erf in double, narrow) was as accurate but fell off C2's vector intrinsics
 * there and cost more than the GEMM itself. Here:
 * <ul>
 * <li>|z| &lt; ½: erf by its Taylor series to z¹¹ (truncation &lt; 3e-9), Φ = ½ + ½·erf;</li>
 * <li>otherwise erfc(|z|) = t·exp(−z² + P(t)), t = 1/(1 + |z|/2), Numerical Recipes' erfcc
 * (fractional error &lt; 1.2e-7), with Φ = 1 − ½erfc for z &gt; 0 and ½erfc for z &lt; 0, so large
 * negative x keep their relative precision instead of cancelling in 1 + erf;</li>
 * <li>exp from {@link VectorMath} (its loop over arrays for the vector form).</li>
 * </ul>
 * Relative error ≤ 1e-6 where |GELU(x)| ≥ 1e-6, the rest is below 1e-12 absolute; the scalar and
 * vector forms run the same float operations, so they agree bit for bit.
 */
public final class Gelu {
    private static final float INV_SQRT2 = 0.70710678f;
    private static final float TWO_OVER_SQRT_PI = 1.1283791671f;
    /** Taylor coefficients of erf(z)/z·(√π/2) in z²: (−1)ⁿ/(n!(2n+1)). */
    private static final float S1 = -1f / 3, S2 = 1f / 10, S3 = -1f / 42, S4 = 1f / 216, S5 = -1f / 1320;
    private static final float C0 = -1.26551223f, C1 = 1.00002368f, C2 = 0.37409196f, C3 = 0.09678418f,
            C4 = -0.18628288f, C5 = 0.27886807f, C6 = -1.13520398f, C7 = 1.48851587f, C8 = -0.82215223f,
            C9 = 0.17087277f;

    private Gelu() {
    }

    public static float gelu(float x) {
        float z = x * INV_SQRT2;
        float a = Math.abs(z);
        float phi;
        if (a < 0.5f) {
            float z2 = z * z;
            float s = Math.fma(Math.fma(Math.fma(Math.fma(S5, z2, S4), z2, S3), z2, S2), z2, S1);
            s = Math.fma(s, z2, 1f);
            phi = Math.fma(0.5f * TWO_OVER_SQRT_PI * z, s, 0.5f);
        } else {
            float t = 1f / Math.fma(0.5f, a, 1f);
            float p = poly(t);
            float halfErfc = 0.5f * t * VectorMath.exp(Math.fma(-a, a, p));
            phi = z > 0 ? 1f - halfErfc : halfErfc;
        }
        return x * phi;
    }

    private static float poly(float t) {
        float p = Math.fma(C9, t, C8);
        p = Math.fma(p, t, C7);
        p = Math.fma(p, t, C6);
        p = Math.fma(p, t, C5);
        p = Math.fma(p, t, C4);
        p = Math.fma(p, t, C3);
        p = Math.fma(p, t, C2);
        p = Math.fma(p, t, C1);
        return Math.fma(p, t, C0);
    }

    /**
     * GELU in place on {@code x[off .. off+n)}: the same float operations as {@link #gelu(float)}, a vector
     * at a time, in chunks of {@value #CHUNK}: pass 1 writes each element's exponent argument −a² + P(t) into
     * a per-thread scratch (and t = 1/(1 + |z|/2) into another), {@link VectorMath#expInPlace} exponentiates
     * it, pass 2 finishes Φ and x·Φ.
     *
     * <p>Why three loops over arrays and not one over a vector GELU (which this was until session 14): a
     * vector passed to or returned from a method C2 does not inline becomes a heap object, and C2 declines
     * a call it has no profile for ({@link VectorMath}'s {@code expShifted} says when). The GEMM calls this
     * per row of its block; here no vector crosses a call of ours, and the exponential's polynomial stays in
     * one place. The passes' extra traffic stays in L1 (two 4 KiB scratch arrays).
     */
    public static void apply(float[] x, int off, int n) {
        float[][] scratch = SCRATCH.get();
        float[] e = scratch[0];
        float[] ts = scratch[1];
        for (int c = 0; c < n; c += CHUNK) {
            int len = Math.min(CHUNK, n - c);
            int bound = CpuVectors.F.loopBound(len);
            exponents(x, off + c, bound, e, ts);
            VectorMath.expInPlace(e, 0, bound);
            finish(x, off + c, bound, e, ts);
            for (int i = bound; i < len; i++) {
                x[off + c + i] = gelu(x[off + c + i]);
            }
        }
    }

    private static final int CHUNK = 1024;
    /** A thread's {exponent arguments, then exponentials; t} for one chunk. */
    private static final ThreadLocal<float[][]> SCRATCH = ThreadLocal.withInitial(() -> new float[2][CHUNK]);

    /** e[i] = −a² + P(t) and ts[i] = t for x[off + i], i &lt; n (whole vectors): erfc's exponent's argument. */
    private static void exponents(float[] x, int off, int n, float[] e, float[] ts) {
        var f = CpuVectors.F;
        for (int i = 0; i < n; i += CpuVectors.L) {
            FloatVector a = FloatVector.fromArray(f, x, off + i).mul(INV_SQRT2).lanewise(ABS);
            FloatVector t = FloatVector.broadcast(f, 1f)
                    .div(a.fma(FloatVector.broadcast(f, 0.5f), FloatVector.broadcast(f, 1f)));
            FloatVector p = FloatVector.broadcast(f, C9).fma(t, FloatVector.broadcast(f, C8))
                    .fma(t, FloatVector.broadcast(f, C7)).fma(t, FloatVector.broadcast(f, C6))
                    .fma(t, FloatVector.broadcast(f, C5)).fma(t, FloatVector.broadcast(f, C4))
                    .fma(t, FloatVector.broadcast(f, C3)).fma(t, FloatVector.broadcast(f, C2))
                    .fma(t, FloatVector.broadcast(f, C1)).fma(t, FloatVector.broadcast(f, C0));
            a.neg().fma(a, p).intoArray(e, i);
            t.intoArray(ts, i);
        }
    }

    /** x[off + i] = x·Φ(x) from e[i] = exp(−a² + P(t)) and ts[i] = t, i &lt; n (whole vectors). */
    private static void finish(float[] x, int off, int n, float[] e, float[] ts) {
        var f = CpuVectors.F;
        for (int i = 0; i < n; i += CpuVectors.L) {
            FloatVector v = FloatVector.fromArray(f, x, off + i);
            FloatVector z = v.mul(INV_SQRT2);
            FloatVector a = z.lanewise(ABS);
            FloatVector z2 = z.mul(z);
            FloatVector s = FloatVector.broadcast(f, S5).fma(z2, FloatVector.broadcast(f, S4))
                    .fma(z2, FloatVector.broadcast(f, S3)).fma(z2, FloatVector.broadcast(f, S2))
                    .fma(z2, FloatVector.broadcast(f, S1)).fma(z2, FloatVector.broadcast(f, 1f));
            FloatVector phiSmall = z.mul(0.5f * TWO_OVER_SQRT_PI).fma(s, FloatVector.broadcast(f, 0.5f));
            FloatVector halfErfc = FloatVector.fromArray(f, ts, i).mul(0.5f).mul(FloatVector.fromArray(f, e, i));
            FloatVector phiBig = halfErfc.blend(FloatVector.broadcast(f, 1f).sub(halfErfc), z.compare(LT, 0f).not());
            VectorMask<Float> small = a.compare(LT, 0.5f);
            v.mul(phiBig.blend(phiSmall, small)).intoArray(x, off + i);
        }
    }
}
