package dev.dictum.whisper.mel;

/**
 * Builds the model input for one 30 s window from raw log-mel frames: clamp every value to at least
 * (window max - 8), i.e. an 80 dB dynamic range, then map x to (x + 4) / 4. Output is row-major
 * [nMels, 3000] with the mel bin outer, as the encoder expects.
 *
 * <p>Deliberate difference from OpenAI's transcribe() for audio longer than 30 s: it takes the max
 * over the log-mel of the whole file, which needs the whole file before the first window. We take
 * the max over the 3000 frames of the window itself, which needs bounded memory and is all a live
 * dictation can know. For audio of up to 479,800 samples (29.9875 s) the two agree exactly: the
 * frames past the window are then pure zero padding, whose raw value -10 cannot raise the max.
 */
public final class LogMelNormalizer {

    private LogMelNormalizer() {}

    /** Normalised window of frames [seek, seek + 3000) as a new [nMels * 3000] array. */
    public static float[] window(MelFrameQueue frames, int seek) {
        float[] out = new float[frames.nMels() * MelConstants.WINDOW_FRAMES];
        window(frames, seek, out);
        return out;
    }

    /**
     * Writes the normalised window of frames [seek, seek + 3000) into {@code out} ([nMels * 3000]).
     * Frames not produced yet (past {@link MelFrameQueue#endFrame()}) count as digital silence,
     * which is what they become once the stream is finished, except for the two or three frames that
     * straddle the end of the audio: call {@link LogMelStream#finish()} first for exact values.
     *
     * @throws IllegalArgumentException if frames from {@code seek} on were already discarded
     */
    public static void window(MelFrameQueue frames, int seek, float[] out) {
        window(frames, seek, out, Integer.MAX_VALUE);
    }

    /**
     * As {@link #window(MelFrameQueue, int, float[])}, knowing that every frame from {@code silentFrom}
     * on is digital silence ({@link LogMelStream#firstSilentFrame}): those are not read (a short
     * dictation's window is mostly the zero padding: 3000 frames read for a few hundred), and the
     * output is the same bits, since a silent frame contributes exactly what the padding fill writes.
     */
    public static void window(MelFrameQueue frames, int seek, float[] out, int silentFrom) {
        int nMels = frames.nMels();
        int nFrames = MelConstants.WINDOW_FRAMES;
        if (out.length < nMels * nFrames) {
            throw new IllegalArgumentException("output needs " + nMels * nFrames + " floats");
        }
        if (seek < frames.firstFrame()) {
            throw new IllegalArgumentException(
                    "frames before " + frames.firstFrame() + " were discarded; seek " + seek);
        }
        int available = Math.max(0, Math.min(nFrames, Math.min(frames.endFrame(), silentFrom) - seek));
        float[] ring = frames.ring();

        float max = available < nFrames ? MelConstants.RAW_SILENCE : Float.NEGATIVE_INFINITY;
        for (int j = 0; j < available; j++) {
            int base = frames.slot(seek + j);
            for (int m = 0; m < nMels; m++) {
                max = Math.max(max, ring[base + m]);
            }
        }
        float floor = max - MelConstants.DYNAMIC_RANGE;
        for (int j = 0; j < available; j++) {
            int base = frames.slot(seek + j);
            for (int m = 0; m < nMels; m++) {
                out[m * nFrames + j] = scale(Math.max(ring[base + m], floor));
            }
        }
        float silence = scale(Math.max(MelConstants.RAW_SILENCE, floor));
        for (int m = 0; m < nMels; m++) {
            java.util.Arrays.fill(out, m * nFrames + available, (m + 1) * nFrames, silence);
        }
    }

    private static float scale(float clamped) {
        return (clamped + MelConstants.SHIFT) / MelConstants.SCALE;
    }
}
