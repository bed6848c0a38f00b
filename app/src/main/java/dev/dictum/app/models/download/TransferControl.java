package dev.dictum.app.models.download;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Cancel and stall detection for the one thread that runs a download. Both interrupt that thread, which
 * wakes it from waiting for an answer or for the next bytes; the flags say which of the two it was.
 */
final class TransferControl {

    private final Thread worker;
    private final long idleNanos;
    private volatile boolean cancelled;
    private volatile boolean stalled;
    private volatile long lastActivity = System.nanoTime();
    private final ScheduledFuture<?> watchdog;

    TransferControl(Thread worker, long idleMillis, ScheduledExecutorService scheduler) {
        this.worker = worker;
        this.idleNanos = idleMillis * 1_000_000;
        long period = Math.max(10, idleMillis / 4);
        this.watchdog = scheduler.scheduleAtFixedRate(this::checkIdle, period, period, TimeUnit.MILLISECONDS);
    }

    void cancel() {
        cancelled = true;
        worker.interrupt();
    }

    boolean cancelled() {
        return cancelled;
    }

    /** Bytes arrived (or a new attempt starts): the stall clock restarts. */
    void activity() {
        lastActivity = System.nanoTime();
    }

    /** True once after the watchdog broke a stalled transfer; clears the thread's interrupt for the retry. */
    boolean takeStall() {
        if (stalled) {
            stalled = false;
            Thread.interrupted();
            return true;
        }
        return false;
    }

    void stop() {
        watchdog.cancel(false);
    }

    private void checkIdle() {
        if (!cancelled && !stalled && System.nanoTime() - lastActivity > idleNanos) {
            stalled = true;
            worker.interrupt();
        }
    }
}
