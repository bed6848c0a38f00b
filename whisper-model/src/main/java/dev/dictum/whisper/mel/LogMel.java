package dev.dictum.whisper.mel;

/**
 * One-shot log-mel of one 30 s window: {@code window(audio)} gives the [nMels, 3000] encoder input
 * (row-major, mel bin outer), normalised as Whisper expects.
 *
 * <p>Audio shorter than 30 s is padded with zeros. The frames are those of OpenAI's transcribe():
 * the signal followed by zeros, reflected only at its start. This equals the "pad to 480000, centred
 * STFT, drop the last frame" recipe of the model READMEs (and Hugging Face's feature extractor) for
 * every clip of up to 479,819 samples. For longer clips (the last 11 ms before 30 s) only frame 2999
 * differs, because that recipe reflects the padded buffer's tail into it where transcribe() sees
 * zeros. Audio longer
 * than 30 s is not cut: frame 2999 uses the real samples up to 480,179, as the first window of a
 * longer file does. Using the same frames as {@link LogMelStream} makes the two paths agree exactly.
 *
 * <p>Filters and twiddles are shared; each instance owns scratch, so use one per thread.
 */
public final class LogMel {

    private final MelFilterBank filters;
    private final MelFrameComputer computer;
    private final float[] frameOut;

    public LogMel(int nMels) {
        this.filters = MelFilterBank.slaney(nMels);
        this.computer = new MelFrameComputer(filters);
        this.frameOut = new float[nMels];
    }

    public int nMels() {
        return filters.nMels();
    }

    /** The normalised first window of {@code audio16k} (16 kHz mono in [-1, 1]): [nMels * 3000]. */
    public float[] window(float[] audio16k) {
        MelFrameQueue frames = new MelFrameQueue(nMels(), MelConstants.WINDOW_FRAMES);
        rawFrames(audio16k, 0, MelConstants.WINDOW_FRAMES, frames);
        return LogMelNormalizer.window(frames, 0);
    }

    /**
     * Raw frames [fromFrame, toFrame) of the whole audio followed by 30 s of zeros, sent to
     * {@code sink} (at most (L + 480000) / 160 frames exist). The non-streaming counterpart of
     * {@link LogMelStream}, for callers that already hold the whole signal.
     */
    public void rawFrames(float[] audio16k, int fromFrame, int toFrame, MelFrameSink sink) {
        long audioLength = audio16k.length;
        long totalFrames = (audioLength + MelConstants.WINDOW_SAMPLES) / MelConstants.HOP_LENGTH;
        if (fromFrame < 0 || fromFrame > toFrame || toFrame > totalFrames) {
            throw new IllegalArgumentException("frames [" + fromFrame + ", " + toFrame
                    + ") outside [0, " + totalFrames + ")");
        }
        double[] frame = computer.samples();
        for (int t = fromFrame; t < toFrame; t++) {
            long start = (long) t * MelConstants.HOP_LENGTH - MelConstants.CENTER_PAD;
            for (int j = 0; j < MelConstants.N_FFT; j++) {
                long index = start + j;
                if (index < 0) {
                    index = -index; // reflect padding at the start
                }
                frame[j] = index < audioLength ? audio16k[(int) index] : 0.0;
            }
            computer.compute(frameOut, 0);
            sink.acceptFrame(t, frameOut);
        }
    }

    /** All (L + 480000) / 160 raw frames of the audio; for tests and short files (not bounded). */
    public MelFrameQueue allRawFrames(float[] audio16k) {
        int total = (int) (((long) audio16k.length + MelConstants.WINDOW_SAMPLES) / MelConstants.HOP_LENGTH);
        MelFrameQueue frames = new MelFrameQueue(nMels(), total);
        rawFrames(audio16k, 0, total, frames);
        return frames;
    }
}
