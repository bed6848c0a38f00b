package dev.dictum.whisper.session;

/**
 * Where a dictation is cut into pieces: the one definition of what a pause means to the
 * transcription, read by {@link DictationSession} (which cuts there) and by the app's long-speech
 * warning (which tells the user when no cut has been possible for a while).
 *
 * <p>A pause itself is not detected here: the app's speech trimmer (the audio module) reports it,
 * with the quiet so far, and the app passes the report on ({@link DictationSession#pause}). What
 * lives here is what Whisper needs from the pieces, which is why the numbers are in whisper-model:
 * a piece is one utterance (what Whisper saw in training) of at least {@value #MIN_PIECE_SECONDS} s,
 * ended by a pause of {@value #SENTENCE_PAUSE_MILLIS} ms or more (shorter ones are commas and
 * unvoiced consonants), and at most {@value #MAX_PIECE_SECONDS} s (one 30 s window with room for the
 * trimmer's tail), forced at its quietest 200 ms when no pause came.
 */
public final class PieceRule {
    /** A piece holds at least this much audio before a pause may end it. */
    public static final int MIN_PIECE_SECONDS = 2;
    /** A pause this long ends a sentence: a piece may be cut there. */
    public static final int SENTENCE_PAUSE_MILLIS = 650;
    /** With no such pause a piece is cut at this length (within its second half). */
    public static final int MAX_PIECE_SECONDS = 28;
    /** Speech without a sentence pause for this long is about to be cut mid-sentence: the app warns. */
    public static final int LONG_SPEECH_WARN_SECONDS = MAX_PIECE_SECONDS - 3;

    private PieceRule() {
    }

    /** Whether a pause of {@code quietSeconds} after {@code pieceSeconds} of open piece ends that piece. */
    public static boolean endsPiece(double pieceSeconds, double quietSeconds) {
        return pieceSeconds >= MIN_PIECE_SECONDS && quietSeconds * 1000 >= SENTENCE_PAUSE_MILLIS;
    }
}
