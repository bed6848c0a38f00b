package dev.dictum.app.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dictum.gpu.MemoryCategory;
import dev.dictum.gpu.MemoryReport;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;

/**
 * {@code dictum bench}'s memory lines (issue 22): the backend's bytes by category, peak and steady
 * (held after the runs: weights, kept window and decoder), and the device's own figure (total - free,
 * the context, kernel modules and graphs included; the whole card, so another process's use counts).
 */
final class BenchMemory {
    private static final double MIB = 1 << 20;

    private BenchMemory() {
    }

    /**
     * The device's peak as estimated from one reading: what was in use at the backend's start, plus the
     * ledger's peak, plus what the device holds now beyond the ledger (modules, graphs), which only grows.
     */
    static long devicePeakEstimate(MemoryReport r) {
        long beyondLedger = r.deviceUsedNow() - r.deviceUsedAtStart() - r.total().current();
        return r.deviceUsedAtStart() + r.total().peak() + Math.max(0, beyondLedger);
    }

    static void print(PrintWriter out, MemoryReport r) {
        out.printf(Locale.ROOT, "memory   %8.1f MiB peak, %.1f MiB steady (%s)%n", r.total().peak() / MIB,
                r.total().current() / MIB, r.hasDeviceFigures() ? "device allocations" : "heap buffers; weights mapped");
        for (Map.Entry<MemoryCategory, MemoryReport.Bytes> e : r.byCategory().entrySet()) {
            if (e.getValue().peak() > 0) {
                out.printf(Locale.ROOT, "  %-16s %8.1f MiB peak, %8.1f MiB steady%n", e.getKey().label(),
                        e.getValue().peak() / MIB, e.getValue().current() / MIB);
            }
        }
        if (r.hasDeviceFigures()) {
            out.printf(Locale.ROOT, "device   %8.1f MiB used now of %.1f MiB (%.1f MiB at the backend's start: the"
                    + " context); peak about %.1f MiB%n", r.deviceUsedNow() / MIB, r.deviceTotal() / MIB,
                    r.deviceUsedAtStart() / MIB, devicePeakEstimate(r) / MIB);
        }
    }

    static void json(ObjectNode o, MemoryReport r) {
        ObjectNode m = o.putObject("memory_mib");
        m.put("peak", r.total().peak() / MIB);
        m.put("steady", r.total().current() / MIB);
        ObjectNode by = m.putObject("by_category");
        for (Map.Entry<MemoryCategory, MemoryReport.Bytes> e : r.byCategory().entrySet()) {
            ObjectNode c = by.putObject(e.getKey().name().toLowerCase(Locale.ROOT));
            c.put("peak", e.getValue().peak() / MIB);
            c.put("steady", e.getValue().current() / MIB);
        }
        if (r.hasDeviceFigures()) {
            m.put("device_used_at_start", r.deviceUsedAtStart() / MIB);
            m.put("device_used_now", r.deviceUsedNow() / MIB);
            m.put("device_peak_estimate", devicePeakEstimate(r) / MIB);
            m.put("device_total", r.deviceTotal() / MIB);
        }
    }
}
