package dev.dictum.app.ui;

/**
 * How long the user has been speaking without a pause, from the microphone's level every ~20 ms.
 * Whisper reads 30 s windows: one stretch of speech much past 25 s without a pause is where long
 * dictation comes back truncated or garbled, so the indicator warns then (a short pause lets the
 * session cut the audio there).
 */
final class SpeechStretch {
    /** The indicator warns past this much speech without a pause. */
    static final long WARN_MILLIS = 25_000;
    /** This much quiet in a row is a pause. */
    static final long PAUSE_MILLIS = 400;
    /** A level this far above the speech threshold counts as speaking. */
    static final double MARGIN_DB = 10;

    private final double loudDb;
    private long stretchStart = -1;
    private long quietSince = -1;

    /** @param speechThresholdDb the audio settings' speech threshold (dBFS) */
    SpeechStretch(double speechThresholdDb) {
        this.loudDb = speechThresholdDb + MARGIN_DB;
    }

    /** Feeds one level reading; returns whether the current stretch has run past {@link #WARN_MILLIS}. */
    synchronized boolean update(float dbfs, long nowMillis) {
        if (dbfs > loudDb) {
            quietSince = -1;
            if (stretchStart < 0) {
                stretchStart = nowMillis;
            }
        } else if (stretchStart >= 0) {
            if (quietSince < 0) {
                quietSince = nowMillis;
            } else if (nowMillis - quietSince >= PAUSE_MILLIS) {
                stretchStart = -1; // a pause: the next words start a new stretch
                quietSince = -1;
            }
        }
        return stretchStart >= 0 && nowMillis - stretchStart > WARN_MILLIS;
    }
}
