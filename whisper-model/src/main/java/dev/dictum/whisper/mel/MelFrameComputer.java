package dev.dictum.whisper.mel;

/**
 * Turns the 400 samples of one centred frame into its raw log-mel column:
 * log10(max(mel(|STFT|^2), 1e-10)), before the per-window clamp and scaling. The one-shot and the
 * streaming paths both go through here, so they produce bit-identical frames.
 *
 * <p>All arithmetic is float64; the result is rounded to float32 once, at the end. Not thread-safe
 * (it owns its scratch); allocates nothing per frame.
 */
final class MelFrameComputer {

    private final MelFilterBank filters;
    private final double[] window = HannWindow.shared();
    private final PowerSpectrum spectrum = new PowerSpectrum();
    private final double[] samples = new double[MelConstants.N_FFT];
    private final double[] power = new double[MelConstants.N_FREQ_BINS];
    private final double[] mel;

    MelFrameComputer(MelFilterBank filters) {
        this.filters = filters;
        this.mel = new double[filters.nMels()];
    }

    int nMels() {
        return filters.nMels();
    }

    /** The frame's input: the caller writes the frame's N_FFT raw (unwindowed) samples here. */
    double[] samples() {
        return samples;
    }

    /** Computes the raw log-mel of {@link #samples()} into {@code out[offset .. offset+nMels)}. */
    void compute(float[] out, int offset) {
        for (int i = 0; i < samples.length; i++) {
            samples[i] *= window[i];
        }
        spectrum.compute(samples, power);
        filters.apply(power, mel);
        for (int m = 0; m < mel.length; m++) {
            out[offset + m] = (float) Math.log10(Math.max(mel[m], MelConstants.POWER_FLOOR));
        }
    }
}
