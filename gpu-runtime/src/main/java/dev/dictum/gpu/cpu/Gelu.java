package dev.dictum.gpu.cpu;

import static jdk.incubator.vector.VectorOperators.ABS;
import static jdk.incubator.vector.VectorOperators.D2F;
import static jdk.incubator.vector.VectorOperators.F2D;
import static jdk.incubator.vector.VectorOperators.GT;
import static jdk.incubator.vector.VectorOperators.LT;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;

/**
 * Exact GELU, as PyTorch's default {@code F.gelu} (approximate='none'): x·Φ(x), Φ(x) = ½(1 + erf(x/√2)).
 *
 * <p>Φ is formed from erfc for |x/√2| ≥ 0.5 (Φ = ½erfc(−x/√2)), so large negative x keep full
 * relative precision instead of cancelling in 1 + erf. Evaluated in double (eight lanes at a time),
 * rounded once to float: GELU runs once per output element, against 2K flops of the GEMM feeding
 * it, so the double math costs a few percent at most.
 */
public final class Gelu {

    private static final double INV_SQRT2 = 0.7071067811865476;
    /** Doubles per float vector: how many double vectors one float vector widens into. */
    private static final int PARTS = CpuVectors.L / Erf.D.length();

    private Gelu() {
    }

    public static float gelu(float x) {
        double z = x * INV_SQRT2;
        double phi = Math.abs(z) < 0.5 ? 0.5 + 0.5 * Erf.erf(z)
                : z > 0 ? 1 - 0.5 * Erf.erfc(z) : 0.5 * Erf.erfc(-z);
        return (float) (x * phi);
    }

    /** GELU in place on {@code x[off .. off+n)}. */
    public static void apply(float[] x, int off, int n) {
        int L = CpuVectors.L;
        int i = 0;
        for (; i <= n - L; i += L) {
            gelu(FloatVector.fromArray(CpuVectors.F, x, off + i)).intoArray(x, off + i);
        }
        for (; i < n; i++) {
            x[off + i] = gelu(x[off + i]);
        }
    }

    /** GELU of every lane (widened to one or two double vectors, then narrowed back exactly once). */
    static FloatVector gelu(FloatVector x) {
        FloatVector lo = (FloatVector) gelu((DoubleVector) x.convertShape(F2D, Erf.D, 0)).convertShape(D2F, CpuVectors.F, 0);
        if (PARTS == 1) {
            return lo;
        }
        FloatVector hi = (FloatVector) gelu((DoubleVector) x.convertShape(F2D, Erf.D, 1)).convertShape(D2F, CpuVectors.F, -1);
        // The narrowed halves are zero outside their own lanes; OR merges them without touching signs of zero.
        return lo.reinterpretAsInts().or(hi.reinterpretAsInts()).reinterpretAsFloats();
    }

    static DoubleVector gelu(DoubleVector x) {
        DoubleVector z = x.mul(INV_SQRT2);
        DoubleVector a = z.lanewise(ABS);
        DoubleVector halfErfc = Erf.erfcNonNegative(a).mul(0.5);
        DoubleVector phiBig = halfErfc.blend(DoubleVector.broadcast(Erf.D, 1).sub(halfErfc), z.compare(GT, 0));
        DoubleVector phiSmall = Erf.erfSeries(z).fma(DoubleVector.broadcast(Erf.D, 0.5), DoubleVector.broadcast(Erf.D, 0.5));
        return x.mul(phiBig.blend(phiSmall, a.compare(LT, 0.5)));
    }
}
