package dev.dictum.whisper.session;

import dev.dictum.whisper.session.DictationSession.Range;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A dictation's audio as fed so far and where it is cut into pieces ({@link PieceRule}): the
 * committed pieces, the open one, and the pause the trimmer last announced. Not thread-safe: the
 * session calls it under its lock.
 */
final class PieceCutter {
    static final int RATE = 16000;
    private static final int QUIET_WINDOW = RATE / 5;
    private static final int QUIET_STEP = 160;

    /** An announced pause: {@code tail} would follow the {@code fedAt} samples fed when it came. */
    record Pause(int fedAt, float[] tail, double quietSeconds) {
        int end() {
            return fedAt + tail.length;
        }
    }

    /** What feeding did to the announced pause. */
    enum Resumed {
        /** Nothing: no pause was announced, or its tail is not yet complete. */
        NO,
        /** Speech came after the pause's tail and the open piece was cut at the tail's end. */
        CUT,
        /** Speech came after the pause, but not at a place to cut (short piece, short pause, other audio). */
        NOT_CUT
    }

    private float[] audio = new float[RATE * 10];
    private int length;
    private int openStart;
    private final List<Range> pieces = new ArrayList<>();
    private Pause pause;

    /** Appends fed samples; cuts where {@link PieceRule} says. */
    Resumed append(float[] samples, int offset, int count) {
        if (length + count > audio.length) {
            audio = Arrays.copyOf(audio, Math.max(audio.length * 2, length + count));
        }
        System.arraycopy(samples, offset, audio, length, count);
        length += count;
        Resumed resumed = Resumed.NO;
        if (pause != null && length > pause.end()) {
            // Speech resumed: the pause's audio is now a place to cut, if what came is what it said.
            if (pauseHeld() && PieceRule.endsPiece((pause.end() - openStart) / (double) RATE, pause.quietSeconds())) {
                cut(pause.end());
                resumed = Resumed.CUT;
            } else {
                resumed = Resumed.NOT_CUT;
            }
            pause = null;
        }
        if (length - openStart >= PieceRule.MAX_PIECE_SECONDS * RATE) {
            int max = PieceRule.MAX_PIECE_SECONDS * RATE;
            cut(quietest(openStart + max / 2, openStart + max));
        }
        return resumed;
    }

    /** Notes a pause report; the same pause reported again (nothing fed between) keeps its longest quiet. */
    void pause(float[] tail, double quietSeconds) {
        if (pause != null && pause.fedAt() == length && Arrays.equals(pause.tail(), tail)) {
            pause = new Pause(length, pause.tail(), Math.max(pause.quietSeconds(), quietSeconds));
        } else {
            pause = new Pause(length, tail.clone(), quietSeconds);
        }
    }

    /** The announced pause not yet ended by speech, or null. */
    Pause pause() {
        return pause;
    }

    /** Whether what was fed after the pause (as far as its tail) is the tail it announced. */
    boolean pauseHeld() {
        return pause != null && length >= pause.end()
                && Arrays.equals(audio, pause.fedAt(), pause.end(), pause.tail(), 0, pause.tail().length);
    }

    /** Ends the open piece at {@code at}. */
    void cut(int at) {
        pieces.add(new Range(openStart, at));
        openStart = at;
        pause = null;
    }

    int length() {
        return length;
    }

    int openStart() {
        return openStart;
    }

    /** The committed pieces (live list: the session's lock guards it). */
    List<Range> pieces() {
        return pieces;
    }

    /** The open piece up to the end of the announced pause's tail (null without a pause). */
    Range pausedPiece() {
        return pause == null ? null : new Range(openStart, pause.end());
    }

    /** The open piece as fed. */
    Range openPiece() {
        return new Range(openStart, length);
    }

    /** A copy of {@code range} of the fed audio, with the pause's tail written over its end where given. */
    float[] copy(Range range, float[] tail) {
        float[] a = Arrays.copyOfRange(audio, range.start(), range.end());
        if (tail != null) {
            System.arraycopy(tail, 0, a, a.length - tail.length, tail.length);
        }
        return a;
    }

    /** The middle of the quietest 200 ms (least energy) in [from, to), searched in 10 ms steps. */
    private int quietest(int from, int to) {
        int best = from + QUIET_WINDOW / 2;
        double bestEnergy = Double.MAX_VALUE;
        for (int s = from; s + QUIET_WINDOW <= to; s += QUIET_STEP) {
            double e = 0;
            for (int i = s; i < s + QUIET_WINDOW; i++) {
                e += (double) audio[i] * audio[i];
            }
            if (e < bestEnergy) {
                bestEnergy = e;
                best = s + QUIET_WINDOW / 2;
            }
        }
        return best;
    }
}
