package dev.dictum.whisper.decode;

/** Told after every window how far the seek loop has got, for progress bars. */
@FunctionalInterface
public interface ProgressListener {

    ProgressListener NONE = (done, total) -> {
    };

    /**
     * @param framesDone  mel frames (100 a second) transcribed or skipped so far
     * @param totalFrames frames of content, or {@link MelWindowSource#UNKNOWN} while the audio still arrives
     */
    void onProgress(int framesDone, int totalFrames);

    /** The fraction done in [0, 1], or NaN while the length is unknown. */
    static double fraction(int framesDone, int totalFrames) {
        if (totalFrames < 0) {
            return Double.NaN;
        }
        return totalFrames == 0 ? 1.0 : Math.min(1.0, framesDone / (double) totalFrames);
    }
}
