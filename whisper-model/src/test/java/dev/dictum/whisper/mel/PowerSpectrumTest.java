package dev.dictum.whisper.mel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PowerSpectrumTest {

    /** 400 = 2^4 5^2 (radix 4, 2, 5, 5 on the half size); the others exercise radix 2 and 3. */
    @ParameterizedTest
    @ValueSource(ints = {400, 2, 4, 6, 16, 18, 30, 90, 120})
    void matchesDirectDft(int n) {
        Random random = new Random(n);
        PowerSpectrum spectrum = n == MelConstants.N_FFT ? new PowerSpectrum() : new PowerSpectrum(n);
        double[] frame = new double[n];
        double[] power = new double[n / 2 + 1];
        for (int trial = 0; trial < 5; trial++) {
            for (int i = 0; i < n; i++) {
                frame[i] = random.nextGaussian() * Math.pow(10, -random.nextInt(4));
            }
            double[] expected = directPower(frame);
            spectrum.compute(frame.clone(), power);
            double energy = 0;
            for (double v : frame) {
                energy += v * v;
            }
            for (int k = 0; k <= n / 2; k++) {
                // Parseval: |X[k]|^2 <= n * energy, so this is a relative error of ~1e-13.
                assertThat(Math.abs(power[k] - expected[k])).isLessThan(1e-13 * n * energy);
            }
        }
    }

    private static double[] directPower(double[] x) {
        int n = x.length;
        double[] out = new double[n / 2 + 1];
        for (int k = 0; k <= n / 2; k++) {
            double re = 0, im = 0;
            for (int j = 0; j < n; j++) {
                double angle = -2.0 * Math.PI * ((long) j * k % n) / n;
                re += x[j] * Math.cos(angle);
                im += x[j] * Math.sin(angle);
            }
            out[k] = re * re + im * im;
        }
        return out;
    }
}
