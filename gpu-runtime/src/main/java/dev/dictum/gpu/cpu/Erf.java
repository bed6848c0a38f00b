package dev.dictum.gpu.cpu;

import static jdk.incubator.vector.VectorOperators.ABS;
import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LT;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * erf and erfc (Java has neither), scalar and vectorised, evaluated in double so that the result
 * rounded to float is accurate to ~1.2e-7 relative everywhere, including the far tails that exact
 * GELU needs for negative inputs (there 1 + erf(x) cancels, so GELU uses erfc directly).
 *
 * <p>|x| &lt; 0.5: Maclaurin series of erf, 9 terms (truncation &lt; 1e-12). Otherwise erfc(|x|)
 * by the Chebyshev-fitted form t·exp(−x² + P(t)), t = 1/(1 + x/2), whose fractional error is
 * below 1.2e-7 for all x ≥ 0 (Press et al., Numerical Recipes §6.2).
 */
public final class Erf {

    static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED.length() >= 8
            ? DoubleVector.SPECIES_512 : DoubleVector.SPECIES_PREFERRED;

    private static final double TWO_OVER_SQRT_PI = 1.1283791670955126;
    /** (-1)^n / (n! (2n+1)), n = 0..8. */
    private static final double[] SERIES = new double[9];

    static {
        double fact = 1;
        for (int n = 0; n < SERIES.length; n++) {
            if (n > 0) {
                fact *= n;
            }
            SERIES[n] = ((n & 1) == 0 ? 1 : -1) / (fact * (2 * n + 1));
        }
    }

    private static final double C0 = -1.26551223, C1 = 1.00002368, C2 = 0.37409196, C3 = 0.09678418,
            C4 = -0.18628806, C5 = 0.27886807, C6 = -1.13520398, C7 = 1.48851587, C8 = -0.82215223,
            C9 = 0.17087277;

    private Erf() {
    }

    public static double erf(double x) {
        double a = Math.abs(x);
        if (a < 0.5) {
            return erfSeries(x);
        }
        double r = 1 - erfcNonNegative(a);
        return x < 0 ? -r : r;
    }

    public static double erfc(double x) {
        if (Math.abs(x) < 0.5) {
            return 1 - erfSeries(x);
        }
        return x > 0 ? erfcNonNegative(x) : 2 - erfcNonNegative(-x);
    }

    private static double erfSeries(double x) {
        double z = x * x;
        double s = SERIES[8];
        for (int n = 7; n >= 0; n--) {
            s = Math.fma(s, z, SERIES[n]);
        }
        return TWO_OVER_SQRT_PI * x * s;
    }

    private static double erfcNonNegative(double x) {
        double t = 1 / (1 + 0.5 * x);
        double p = C9;
        p = Math.fma(p, t, C8);
        p = Math.fma(p, t, C7);
        p = Math.fma(p, t, C6);
        p = Math.fma(p, t, C5);
        p = Math.fma(p, t, C4);
        p = Math.fma(p, t, C3);
        p = Math.fma(p, t, C2);
        p = Math.fma(p, t, C1);
        p = Math.fma(p, t, C0);
        return t * Math.exp(Math.fma(-x, x, p));
    }

    /** erf, lane-wise. */
    public static DoubleVector erf(DoubleVector x) {
        DoubleVector a = x.lanewise(ABS);
        DoubleVector big = DoubleVector.broadcast(D, 1).sub(erfcNonNegative(a));
        big = big.blend(big.neg(), x.compare(LT, 0));
        return big.blend(erfSeries(x), a.compare(LT, 0.5));
    }

    /** erf(x) for the small lanes (|x| &lt; 0.5); meaningless elsewhere. */
    static DoubleVector erfSeries(DoubleVector x) {
        DoubleVector z = x.mul(x);
        DoubleVector s = DoubleVector.broadcast(D, SERIES[8]);
        for (int n = 7; n >= 0; n--) {
            s = s.fma(z, DoubleVector.broadcast(D, SERIES[n]));
        }
        return s.mul(x).mul(TWO_OVER_SQRT_PI);
    }

    /** erfc(x) for x ≥ 0 lanes. */
    static DoubleVector erfcNonNegative(DoubleVector x) {
        DoubleVector t = DoubleVector.broadcast(D, 1).div(x.mul(0.5).add(1));
        DoubleVector p = DoubleVector.broadcast(D, C9);
        p = p.fma(t, DoubleVector.broadcast(D, C8));
        p = p.fma(t, DoubleVector.broadcast(D, C7));
        p = p.fma(t, DoubleVector.broadcast(D, C6));
        p = p.fma(t, DoubleVector.broadcast(D, C5));
        p = p.fma(t, DoubleVector.broadcast(D, C4));
        p = p.fma(t, DoubleVector.broadcast(D, C3));
        p = p.fma(t, DoubleVector.broadcast(D, C2));
        p = p.fma(t, DoubleVector.broadcast(D, C1));
        p = p.fma(t, DoubleVector.broadcast(D, C0));
        return t.mul(exp(x.neg().fma(x, p)));
    }

    private static final double LOG2E = 1.4426950408889634;
    private static final double LN2_HI = 0.6931471803691238;
    private static final double LN2_LO = 1.9082149292705877e-10;
    /** 1.5·2⁵²: adding it rounds to an integer, which then sits in the low bits of the double. */
    private static final double ROUNDER = 0x1.8p52;

    /**
     * e^x for x ≤ 0 (the only use here), relative error ~1e-15. Not the Vector API's EXP: that is
     * SVML in C2 but Math.exp lane by lane before compilation, and the two differ in the last bit,
     * which breaks run-to-run reproducibility. This is plain arithmetic, identical in every tier.
     * x = n·ln2 + r, |r| ≤ ln2/2; e^r by its Taylor series to r¹¹ (truncation &lt; 1e-14); 2ⁿ built
     * from its exponent bits. Below −708 the result is flushed to 0.
     */
    static DoubleVector exp(DoubleVector x) {
        DoubleVector xc = x.max(-708.0);
        DoubleVector t = xc.mul(LOG2E).add(ROUNDER);
        DoubleVector n = t.sub(ROUNDER);
        DoubleVector r = n.neg().fma(DoubleVector.broadcast(D, LN2_HI), xc);
        r = n.neg().fma(DoubleVector.broadcast(D, LN2_LO), r);
        DoubleVector p = DoubleVector.broadcast(D, INV_FACTORIAL[11]);
        for (int k = 10; k >= 0; k--) {
            p = p.fma(r, DoubleVector.broadcast(D, INV_FACTORIAL[k]));
        }
        LongVector bits = t.reinterpretAsLongs().sub(Double.doubleToRawLongBits(ROUNDER)).add(1023).lanewise(LSHL, 52);
        DoubleVector result = p.mul(bits.reinterpretAsDoubles());
        return result.blend(0.0, x.compare(LT, -708.0));
    }

    /** 1/k!, k = 0..11. */
    private static final double[] INV_FACTORIAL = new double[12];

    static {
        double f = 1;
        for (int k = 0; k < INV_FACTORIAL.length; k++) {
            f *= Math.max(k, 1);
            INV_FACTORIAL[k] = 1 / f;
        }
    }
}
