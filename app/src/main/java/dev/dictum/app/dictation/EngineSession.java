package dev.dictum.app.dictation;

/** One recording being transcribed: fed while the user speaks, finished at the release. */
public interface EngineSession {

    /** 16 kHz mono samples; may block briefly when decoding is far behind. */
    void feed(float[] samples);

    /**
     * Waits for the transcript.
     *
     * @throws RuntimeException when transcription failed (the recording is kept for a retry)
     */
    Transcript finish();

    /** Drops the audio and stops decoding. */
    void cancel();
}
