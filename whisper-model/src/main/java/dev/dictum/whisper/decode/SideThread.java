package dev.dictum.whisper.decode;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One daemon thread for host work that can run while the decoder computes the next step (the
 * log-softmax of the token just chosen: a 51 865-wide sum of exponentials, ~0.25 ms, that the
 * choice of the next token does not need). Tasks run in the order submitted.
 */
final class SideThread {
    static final ExecutorService EXECUTOR = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "dictum-decode-side");
        t.setDaemon(true);
        return t;
    });

    private SideThread() {
    }

    /** The task's result, its failure rethrown unchecked. */
    static <T> T get(Future<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the side thread", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException re ? re
                    : new IllegalStateException("side thread failed", e.getCause());
        }
    }
}
