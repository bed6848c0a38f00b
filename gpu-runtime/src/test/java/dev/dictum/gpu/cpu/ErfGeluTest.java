package dev.dictum.gpu.cpu;

import static org.assertj.core.api.Assertions.assertThat;

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
            // Relative where GELU is not vanishing; below 1e-6 in magnitude (x < -5.3) float itself
            // cannot carry erfc's tail (PyTorch's float GELU returns 0 there): absolute 1e-12.
            double tol = Math.abs(ref) >= 1e-6 ? Math.abs(ref) : 1e-6;
            worst = Math.max(worst, Math.abs(y[i] - ref) / tol);
            worst = Math.max(worst, Math.abs(Gelu.gelu(x[i]) - ref) / tol);
            assertThat(y[i]).as("vector and scalar GELU agree at %s", x[i]).isEqualTo(Gelu.gelu(x[i]));
        }
        // A few float roundings (t, the exp argument −z²+P(t), x·Φ): about 20 ulp at worst, where
        // PyTorch's own float32 GELU (1 + erf in float) is off by far more for x < −3.
        assertThat(worst).isLessThan(3e-6);
        float[] special = {0f, -0f, Float.POSITIVE_INFINITY, Float.NaN, 1e-30f, -1e-30f};
        Gelu.apply(special, 0, special.length);
        assertThat(special[0]).isEqualTo(0f);
        assertThat(special[2]).isEqualTo(Float.POSITIVE_INFINITY);
        assertThat(special[3]).isNaN();
        assertThat(special[4]).isCloseTo(0.5e-30f, org.assertj.core.data.Offset.offset(1e-36f));
    }
}
