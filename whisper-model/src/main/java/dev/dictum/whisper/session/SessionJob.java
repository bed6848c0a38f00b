package dev.dictum.whisper.session;

import dev.dictum.whisper.decode.TranscriptionResult;
import dev.dictum.whisper.session.DictationSession.Range;

/**
 * One transcription the session's thread runs over a stretch of the dictation.
 *
 * @param audio the stretch's audio, a pause's announced tail included
 * @param fed   samples of {@code audio} that were fed (the rest: a pause's announced tail)
 * @param draft the latest live text's or speculation's tokens of the same piece (same start, so the
 *              same prompt), checked in one decoder pass; else null. Every job over the open piece
 *              takes one: the run at the release, and the speculation at a pause (the answer of a
 *              release in quiet) and the live text, which then hold the engine for less time
 */
record SessionJob(Kind kind, Range range, float[] audio, int fed, int[] context, String language, int[] draft) {

    /** Why the job runs. */
    enum Kind {
        /** A committed piece, or the open piece at the release: part of the result. */
        PIECE,
        /** The open piece plus a pause's tail: the result if the release comes in that pause. */
        SPECULATIVE,
        /** The open piece as it stands: live text, never part of the result. */
        PARTIAL
    }

    /**
     * A finished job and where its time went (the session's thread; System.nanoTime); {@code cpuNanos}:
     * the CPU time the session's thread and the compute pool's helpers had meanwhile (-1: unknown).
     */
    record Ran(TranscriptionResult result, long startedAt, long endedAt, long melNanos, long transcribeNanos,
            long cpuNanos) {
    }
}
