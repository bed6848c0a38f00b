package dev.dictum.whisper.decode;

/**
 * The log-mel spectrogram of the audio to transcribe, served as 30-second windows for the seek
 * loop. Implementations may compute it ahead of time or while audio still arrives.
 *
 * <p>As in OpenAI's transcribe, the spectrogram is that of the audio followed by 30 s of zeros
 * (frames past the end of the audio are the log-mel of silence) and is normalised as a whole.
 */
public interface MelWindowSource {

    /** {@link #totalFrames()} while the end of the audio is not known yet. */
    int UNKNOWN = -1;

    /** Mel bins of every window row. */
    int melBins();

    /**
     * Frames of audio content (100 a second, without the 30 s of padding), or {@link #UNKNOWN}
     * while the audio is still arriving.
     */
    int totalFrames();

    /**
     * The window {@code [n_mels, 3000]} (row-major, mel bin outer) starting at {@code seekFrame}:
     * frames seekFrame .. seekFrame + 2999 of the padded spectrogram. Blocks until those frames
     * exist or the audio has ended; afterwards, either {@link #totalFrames()} is known or the whole
     * window is audio content. The returned array belongs to the caller, which overwrites frames
     * past the end of the content with zeros (OpenAI's {@code pad_or_trim} of the slice).
     */
    float[] window(int seekFrame);

    /** Frames before this will not be asked for again and may be freed. */
    void discardBefore(int frame);
}
