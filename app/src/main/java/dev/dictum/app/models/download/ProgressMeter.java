package dev.dictum.app.models.download;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Counts a download's bytes and turns them into progress snapshots: the rate is a moving average over
 * roughly the last two seconds, so a short stall or burst does not make the time-left estimate jump.
 * Listeners hear at most every {@value #REPORT_INTERVAL_MS} ms, and always on {@link #finish()}.
 */
final class ProgressMeter {

    static final long REPORT_INTERVAL_MS = 100;
    private static final double RATE_WINDOW_NANOS = 2e9;

    private final Consumer<DownloadProgress> listener;
    private final LongSupplier nanoClock;
    private String file = "";
    private long done;
    private long total;
    private double rate;
    private long sampleBytes;
    private long sampleStart;
    private long lastReport;
    private volatile DownloadProgress latest = new DownloadProgress("", 0, 0, 0, null);

    ProgressMeter(long total, Consumer<DownloadProgress> listener, LongSupplier nanoClock) {
        this.total = total;
        this.listener = listener;
        this.nanoClock = nanoClock;
        this.sampleStart = nanoClock.getAsLong();
        this.lastReport = sampleStart - REPORT_INTERVAL_MS * 1_000_000;
    }

    synchronized void file(String name) {
        file = name;
        report(true);
    }

    /** Bytes that were on disk already (a resumed part): counted as done, not in the rate. */
    synchronized void alreadyHave(long bytes) {
        done += bytes;
        report(true);
    }

    /** Bytes thrown away (a part restarted from zero). */
    synchronized void discard(long bytes) {
        done -= bytes;
        report(true);
    }

    /** The server told the real size of a file expected at {@code approx} bytes. */
    synchronized void correctTotal(long approx, long actual) {
        total += actual - approx;
        report(true);
    }

    synchronized void transferred(long bytes) {
        done += bytes;
        sampleBytes += bytes;
        long now = nanoClock.getAsLong();
        long elapsed = now - sampleStart;
        if (elapsed >= 250_000_000L) {
            double current = sampleBytes * 1e9 / elapsed;
            double weight = Math.min(1.0, elapsed / RATE_WINDOW_NANOS);
            rate = rate == 0 ? current : rate + weight * (current - rate);
            sampleBytes = 0;
            sampleStart = now;
        }
        report(false);
    }

    synchronized void finish() {
        report(true);
    }

    DownloadProgress latest() {
        return latest;
    }

    private void report(boolean force) {
        long now = nanoClock.getAsLong();
        if (!force && now - lastReport < REPORT_INTERVAL_MS * 1_000_000) {
            return;
        }
        lastReport = now;
        Duration left = rate <= 0 ? null : Duration.ofMillis((long) (Math.max(0, total - done) / rate * 1000));
        latest = new DownloadProgress(file, done, total, rate, left);
        listener.accept(latest);
    }
}
