package dev.dictum.app.dictation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.whisper.session.PieceRule;
import org.junit.jupiter.api.Test;

/** The long-speech warning follows the session's piece rule, on the trimmer's events. */
class SpeechStretchTest {
    private static final int RATE = 16000;
    private static final int TAIL = RATE / 5;

    /** Feeds {@code seconds} of trimmed audio in 30 ms frames; returns the last answer. */
    static boolean speak(SpeechStretch s, double seconds) {
        boolean warn = false;
        for (int i = 0; i < seconds * RATE; i += 480) {
            s.fed(480);
            warn = s.tooLong();
        }
        return warn;
    }

    /** A pause as the trimmer reports it, growing from its tail every 30 ms frame to {@code quietSeconds}. */
    static void pause(SpeechStretch s, double quietSeconds) {
        for (double q = TAIL / (double) RATE; q <= quietSeconds + 1e-9; q += 0.03) {
            s.paused(TAIL, q);
        }
    }

    @Test
    void warnsOnlyPastTheWarningLengthWithoutAPause() {
        SpeechStretch s = new SpeechStretch();
        assertThat(speak(s, PieceRule.LONG_SPEECH_WARN_SECONDS - 0.1)).isFalse();
        assertThat(speak(s, 0.2)).isTrue();
        // A pause too short to end a piece (a comma) does not start a new stretch.
        pause(s, PieceRule.SENTENCE_PAUSE_MILLIS / 1000.0 - 0.1);
        assertThat(speak(s, 1)).isTrue();
    }

    @Test
    void aSentencePauseStartsANewStretch() {
        SpeechStretch s = new SpeechStretch();
        speak(s, 20);
        pause(s, PieceRule.SENTENCE_PAUSE_MILLIS / 1000.0 + 0.05);
        assertThat(speak(s, PieceRule.LONG_SPEECH_WARN_SECONDS - 1)).isFalse();
        assertThat(speak(s, 2)).isTrue();
    }

    @Test
    void aPauseAfterLessThanAPieceDoesNotCut() {
        SpeechStretch s = new SpeechStretch();
        speak(s, PieceRule.MIN_PIECE_SECONDS - 0.5);
        pause(s, 2);
        // The session does not cut a piece this short: the stretch goes on from the start.
        assertThat(speak(s, PieceRule.LONG_SPEECH_WARN_SECONDS - 1)).isTrue();
    }
}
