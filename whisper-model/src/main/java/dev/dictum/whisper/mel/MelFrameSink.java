package dev.dictum.whisper.mel;

/** Receives raw log-mel frames (see {@link LogMelStream}) in order, frame 0 first. */
@FunctionalInterface
public interface MelFrameSink {

    /**
     * One raw frame: {@code rawLogMel[m]} = log10(max(mel energy of bin m, 1e-10)). The array is
     * reused for the next frame, so copy what you keep.
     */
    void acceptFrame(int frameIndex, float[] rawLogMel);
}
