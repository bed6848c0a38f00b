package dev.dictum.whisper.mel;

/**
 * |X[k]|^2 for k = 0..n/2 of a real frame of even length n, in float64. A real DFT of length n is
 * computed as one complex DFT of length n/2 (even samples as real part, odd samples as imaginary
 * part) followed by the standard split step, which halves the work of a complex n-point FFT.
 *
 * <p>Not thread-safe: each instance owns its scratch arrays so that a frame allocates nothing.
 */
final class PowerSpectrum {

    private static final ComplexFft HALF_N_FFT = new ComplexFft(MelConstants.N_FFT / 2);

    private final int n;
    private final int half;
    private final ComplexFft fft;
    /** exp(-2 pi i k / n) for k = 0..n/2: recombines the even and odd half-spectra. */
    private final double[] splitRe;
    private final double[] splitIm;
    private final double[] zr, zi, workRe, workIm;

    /** For the Whisper frame size {@link MelConstants#N_FFT}; shares its FFT plan. */
    PowerSpectrum() {
        this(MelConstants.N_FFT, HALF_N_FFT);
    }

    /** For any even size (used by tests to check the algorithm on other sizes). */
    PowerSpectrum(int n) {
        this(n, new ComplexFft(n / 2));
    }

    private PowerSpectrum(int n, ComplexFft halfFft) {
        if (n < 2 || n % 2 != 0) {
            throw new IllegalArgumentException("frame length must be even: " + n);
        }
        this.n = n;
        this.half = n / 2;
        this.fft = halfFft;
        this.splitRe = new double[half + 1];
        this.splitIm = new double[half + 1];
        for (int k = 0; k <= half; k++) {
            double angle = -2.0 * Math.PI * k / n;
            splitRe[k] = Math.cos(angle);
            splitIm[k] = Math.sin(angle);
        }
        this.zr = new double[half];
        this.zi = new double[half];
        this.workRe = new double[half];
        this.workIm = new double[half];
    }

    /** Number of output bins, n/2 + 1. */
    int bins() {
        return half + 1;
    }

    /** Writes |X[k]|^2 for k = 0..n/2 of {@code frame[0..n)} into {@code power[0..n/2]}. */
    void compute(double[] frame, double[] power) {
        for (int j = 0; j < half; j++) {
            zr[j] = frame[2 * j];
            zi[j] = frame[2 * j + 1];
        }
        fft.transform(zr, zi, workRe, workIm);
        for (int k = 0; k <= half; k++) {
            // Z[k] = E[k] + i O[k] where E, O are the DFTs of the even and odd samples; with
            // B = conj(Z[half - k]): E = (Z[k] + B) / 2 and O = -i (Z[k] - B) / 2.
            int a = k == half ? 0 : k;
            int b = k == 0 ? 0 : half - k;
            double ar = zr[a], ai = zi[a];
            double br = zr[b], bi = -zi[b];
            double er = 0.5 * (ar + br), ei = 0.5 * (ai + bi);
            double or = 0.5 * (ai - bi), oi = -0.5 * (ar - br);
            // X[k] = E[k] + exp(-2 pi i k / n) O[k]
            double xr = er + splitRe[k] * or - splitIm[k] * oi;
            double xi = ei + splitRe[k] * oi + splitIm[k] * or;
            power[k] = xr * xr + xi * xi;
        }
    }
}
