package dev.dictum.whisper.mel;

/**
 * The periodic Hann window of length {@link MelConstants#N_FFT} (torch.hann_window's default), in
 * float64. Periodic, not symmetric: w[n] = 0.5 - 0.5 cos(2 pi n / N), so w[N] would equal w[0].
 */
final class HannWindow {

    private static final double[] WINDOW = periodic(MelConstants.N_FFT);

    private HannWindow() {}

    /** The shared window; callers must not modify it. */
    static double[] shared() {
        return WINDOW;
    }

    static double[] periodic(int n) {
        double[] w = new double[n];
        for (int i = 0; i < n; i++) {
            w[i] = 0.5 - 0.5 * Math.cos(2.0 * Math.PI * i / n);
        }
        return w;
    }
}
