package dev.dictum.app.dictation;

/** One dictation in progress on a {@link SpeechEngine}: fed while the user speaks, finished at the release. */
public interface Dictation {

    /** 16 kHz mono samples; may block briefly when decoding is far behind. */
    void feed(float[] samples);

    /**
     * The speaker has been quiet for {@code quietSeconds}: what was fed so far plus {@code tail} is
     * the whole recording if nothing else is fed before {@link #finish()}, so the engine may
     * transcribe it now. Called again as the same pause goes on. Returns at once.
     */
    default void pause(float[] tail, double quietSeconds) {
    }

    /**
     * Waits for the transcript.
     *
     * @throws RuntimeException when transcription failed (the recording is kept for a retry)
     */
    Transcript finish();

    /** Drops the audio and stops decoding. */
    void cancel();
}
