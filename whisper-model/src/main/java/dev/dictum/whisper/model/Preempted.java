package dev.dictum.whisper.model;

import java.util.concurrent.CancellationException;

/**
 * A run stopped because it was no longer wanted (a warm-up that a real dictation overtook, a
 * speculation that speech made useless): nothing of it is kept. It is a
 * {@link CancellationException}, so callers that already drop cancelled work drop this too; the
 * distinct type says the stop was asked for rather than a failure.
 */
public final class Preempted extends CancellationException {
    public Preempted(String where) {
        super("preempted " + where);
    }
}
