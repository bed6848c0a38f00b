package dev.dictum.gpu.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import jdk.incubator.vector.DoubleVector;
import org.junit.jupiter.api.Test;

class ErfGeluTest {

    @Test
    void referenceErfIsSelfConsistent() {
        // Known values (Abramowitz & Stegun table 7.1) check the test's own reference first.
        assertThat(Reference.erf(0.5)).isCloseTo(0.5204998778130465, org.assertj.core.data.Offset.offset(1e-15));
        assertThat(Reference.erf(2.0)).isCloseTo(0.9953222650189527, org.assertj.core.data.Offset.offset(1e-15));
        assertThat(Reference.erfc(4.0)).isCloseTo(1.541725790028002e-08, org.assertj.core.data.Offset.offset(1e-22));
        assertThat(Reference.erf(3.0)).isCloseTo(1 - Reference.erfcContinuedFraction(3.0), org.assertj.core.data.Offset.offset(1e-13));
    }

    @Test
    void scalarAndVectorErfMatchDoubleReferenceWithin1e6Relative() {
        double worst = 0;
        double[] xs = new double[Erf.D.length()];
        for (int i = -60000; i <= 60000; i += xs.length) {
            for (int l = 0; l < xs.length; l++) {
                xs[l] = (i + l) * 1e-4;  // [-6, 6], dense near 0 and across the 0.5 switch-over
            }
            double[] v = Erf.erf(DoubleVector.fromArray(Erf.D, xs, 0)).toArray();
            for (int l = 0; l < xs.length; l++) {
                double ref = Reference.erf(xs[l]);
                double scale = Math.max(Math.abs(ref), 1e-30);
                worst = Math.max(worst, Math.abs(Erf.erf(xs[l]) - ref) / scale);
                worst = Math.max(worst, Math.abs(v[l] - ref) / scale);
            }
        }
        assertThat(worst).isLessThan(1e-6);
    }

    @Test
    void erfcKeepsRelativePrecisionInTheTail() {
        double worst = 0;
        for (double x = 0; x < 9; x += 0.001) {
            double ref = Reference.erfc(x);
            worst = Math.max(worst, Math.abs(Erf.erfc(x) - ref) / ref);
        }
        assertThat(worst).isLessThan(1e-6);
    }

    @Test
    void geluMatchesExactErfGeluIncludingLargeNegativeInputs() {
        int n = 200_003;
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = -13f + 26f * i / (n - 1);
        }
        float[] y = x.clone();
        Gelu.apply(y, 0, n);
        double worst = 0;
        for (int i = 0; i < n; i++) {
            double ref = Reference.gelu(x[i]);
            double err = Math.abs(y[i] - ref) / Math.max(Math.abs(ref), 1e-37);
            worst = Math.max(worst, err);
            double errScalar = Math.abs(Gelu.gelu(x[i]) - ref) / Math.max(Math.abs(ref), 1e-37);
            worst = Math.max(worst, errScalar);
        }
        assertThat(worst).isLessThan(1e-6);
        float[] special = {0f, -0f, Float.POSITIVE_INFINITY, Float.NaN, 1e-30f, -1e-30f};
        Gelu.apply(special, 0, special.length);
        assertThat(special[0]).isEqualTo(0f);
        assertThat(special[2]).isEqualTo(Float.POSITIVE_INFINITY);
        assertThat(special[3]).isNaN();
        assertThat(special[4]).isCloseTo(0.5e-30f, org.assertj.core.data.Offset.offset(1e-36f));
    }
}
