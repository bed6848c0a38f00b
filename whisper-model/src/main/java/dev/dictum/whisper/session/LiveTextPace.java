package dev.dictum.whisper.session;

/**
 * How often the session remakes the live text: every 4 × the engine's last run (so the engine is
 * free at least three quarters of the time for the pieces and the release), within
 * [{@value #MIN_MILLIS} ms, 1 s]: a GPU gets fresher text and a longer draft for the release, a slow
 * CPU is not crowded out of the pieces.
 */
final class LiveTextPace {
    static final int MIN_MILLIS = 250;
    static final long MAX_NANOS = 1_000_000_000L;

    private LiveTextPace() {
    }

    /** Nanoseconds between live-text runs after a run of {@code lastRunNanos}. */
    static long every(long lastRunNanos) {
        return Math.clamp(4 * lastRunNanos, MIN_MILLIS * 1_000_000L, MAX_NANOS);
    }
}
