package dev.dictum.app.dictation;

import dev.dictum.whisper.session.PieceRule;

/**
 * How long the dictation's open piece has run without a pause that ends it, from the speech
 * trimmer's events, the same ones the session cuts on (its output and its pause reports, passed on
 * by {@link Recording}) and by the same rule ({@link PieceRule#endsPiece}). Whisper reads 30 s
 * windows: past {@value PieceRule#LONG_SPEECH_WARN_SECONDS} s the session is about to cut mid-sentence,
 * so the indicator warns until a pause lets it cut there.
 */
final class SpeechStretch {
    private static final int RATE = 16000;

    private long fed;
    private long pieceStart;
    /** The pause reported last and not yet ended by speech: where its tail ends, and its quiet. */
    private long pauseEnd = -1;
    private double quietSeconds;

    /** The trimmer passed on {@code samples} more samples. */
    synchronized void fed(int samples) {
        fed += samples;
        if (pauseEnd >= 0 && fed > pauseEnd) {
            if (PieceRule.endsPiece((pauseEnd - pieceStart) / (double) RATE, quietSeconds)) {
                pieceStart = pauseEnd; // the session cuts here: the next words start a new piece
            }
            pauseEnd = -1;
        }
    }

    /** The trimmer reported a pause: {@code tailSamples} of its quiet follow if the recording ends now. */
    synchronized void paused(int tailSamples, double quietSeconds) {
        if (pauseEnd != fed + tailSamples) {
            this.quietSeconds = 0;
        }
        pauseEnd = fed + tailSamples;
        this.quietSeconds = Math.max(this.quietSeconds, quietSeconds);
    }

    /** Whether the open piece has run past {@link PieceRule#LONG_SPEECH_WARN_SECONDS}. */
    synchronized boolean tooLong() {
        return fed - pieceStart > (long) PieceRule.LONG_SPEECH_WARN_SECONDS * RATE;
    }
}
