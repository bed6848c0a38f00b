package dev.dictum.gpu;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * A backend's memory: what it allocated, by category, now ("steady") and at its peak, and the
 * device's own figure where the driver gives one (total minus free: the whole device, so on a card
 * used by nothing else the process's context, modules and graphs included). {@code -1}: not known
 * (the CPU, whose buffers are heap arrays and whose weights are the mapped file).
 *
 * @param byCategory every category, zero where nothing was allocated
 * @param deviceUsedAtStart device bytes in use when the backend was created (its context included)
 * @param deviceUsedNow device bytes in use when this report was taken
 */
public record MemoryReport(Map<MemoryCategory, Bytes> byCategory, Bytes total, long deviceUsedAtStart,
        long deviceUsedNow, long deviceTotal) {

    /** Bytes held now and the most held at once. */
    public record Bytes(long current, long peak) {
    }

    public MemoryReport {
        byCategory = Collections.unmodifiableMap(new EnumMap<>(byCategory)); // in the enum's order
    }

    /** Whether the device gave its own figures. */
    public boolean hasDeviceFigures() {
        return deviceUsedNow >= 0;
    }

    /** The device's free bytes when this report was taken (cuMemGetInfo / hipMemGetInfo), -1 if unknown. */
    public long deviceFree() {
        return hasDeviceFigures() ? deviceTotal - deviceUsedNow : -1;
    }
}
