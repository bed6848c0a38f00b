package dev.dictum.app.history;

/** How a dictation ended. */
public enum HistoryStatus {
    /** Text was produced (and inserted, unless insertion failed later). */
    OK,
    /** Transcription failed; the WAV is kept and can be transcribed again. */
    FAILED,
    /** Nobody spoke (the VAD or the model's no-speech gate): nothing was inserted. */
    EMPTY,
    /** The user cancelled the recording: nothing was inserted; the WAV is kept and can be transcribed again. */
    CANCELLED
}
