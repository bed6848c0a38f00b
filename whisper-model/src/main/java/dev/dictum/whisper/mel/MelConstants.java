package dev.dictum.whisper.mel;

/**
 * The fixed numbers of Whisper's audio front end (OpenAI {@code whisper/audio.py}). Every Whisper
 * model uses the same values; only the number of mel bins (80 or 128) varies.
 */
public final class MelConstants {

    /** Input sample rate in Hz; callers resample before feeding audio in. */
    public static final int SAMPLE_RATE = 16_000;
    /** STFT size: a 25 ms analysis window. */
    public static final int N_FFT = 400;
    /** STFT hop: 10 ms, i.e. 100 frames per second. */
    public static final int HOP_LENGTH = 160;
    /** Frames are centred: frame t covers samples [t*HOP - PAD, t*HOP + PAD). */
    public static final int CENTER_PAD = N_FFT / 2;
    /** Number of one-sided frequency bins of an N_FFT real FFT. */
    public static final int N_FREQ_BINS = N_FFT / 2 + 1;
    /** One model window: 30 s of audio. */
    public static final int WINDOW_SAMPLES = 30 * SAMPLE_RATE;
    /** One model window in frames (the frame centred on sample WINDOW_SAMPLES is dropped). */
    public static final int WINDOW_FRAMES = WINDOW_SAMPLES / HOP_LENGTH;
    /** Mel energies are floored here before the log so that silence gives a finite value. */
    public static final double POWER_FLOOR = 1e-10;
    /**
     * The raw value of a frame of digital silence, log10(POWER_FLOOR) = -10. Computed with the same
     * expression as a real frame so that a shortcut for silent frames gives bit-identical output.
     */
    public static final float RAW_SILENCE = (float) Math.log10(POWER_FLOOR);
    /** Values more than this many decades below the window maximum are clamped (80 dB). */
    public static final float DYNAMIC_RANGE = 8f;
    /** The final affine map is (x + SHIFT) / SCALE. */
    public static final float SHIFT = 4f;
    public static final float SCALE = 4f;

    private MelConstants() {}
}
