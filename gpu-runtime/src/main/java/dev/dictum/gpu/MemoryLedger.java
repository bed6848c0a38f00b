package dev.dictum.gpu;

import java.util.EnumMap;
import java.util.Map;

/**
 * Current and peak bytes per {@link MemoryCategory} of one backend, and the peak of their sum (the
 * categories peak at different times: encoder scratch while encoding, self K/V while decoding).
 * Thread-safe (buffers may be closed from any thread).
 */
public final class MemoryLedger {
    private final long[] current = new long[MemoryCategory.values().length];
    private final long[] peak = new long[current.length];
    private long total;
    private long totalPeak;

    public synchronized void allocated(MemoryCategory c, long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative allocation of " + bytes + " bytes");
        }
        int i = c.ordinal();
        current[i] += bytes;
        peak[i] = Math.max(peak[i], current[i]);
        total += bytes;
        totalPeak = Math.max(totalPeak, total);
    }

    public synchronized void freed(MemoryCategory c, long bytes) {
        int i = c.ordinal();
        if (bytes < 0 || bytes > current[i]) {
            throw new IllegalStateException("freeing " + bytes + " bytes of " + c.label() + " with " + current[i]
                    + " held");
        }
        current[i] -= bytes;
        total -= bytes;
    }

    /** This ledger's figures now; the device's own figures as given (-1 where the device has none). */
    public synchronized MemoryReport report(long deviceUsedAtStart, long deviceUsedNow, long deviceTotal) {
        Map<MemoryCategory, MemoryReport.Bytes> m = new EnumMap<>(MemoryCategory.class);
        for (MemoryCategory c : MemoryCategory.values()) {
            m.put(c, new MemoryReport.Bytes(current[c.ordinal()], peak[c.ordinal()]));
        }
        return new MemoryReport(m, new MemoryReport.Bytes(total, totalPeak), deviceUsedAtStart, deviceUsedNow,
                deviceTotal);
    }
}
