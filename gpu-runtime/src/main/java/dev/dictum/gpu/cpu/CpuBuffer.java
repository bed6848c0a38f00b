package dev.dictum.gpu.cpu;

import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.MemoryCategory;
import dev.dictum.gpu.MemoryLedger;
import java.util.concurrent.atomic.AtomicBoolean;

/** A CPU activation buffer: a heap float array (the Vector API loads heap arrays fastest). */

final class CpuBuffer implements Buffer {
    final float[] data;
    private final MemoryLedger ledger;
    private final MemoryCategory category;
    private final AtomicBoolean closed = new AtomicBoolean();

    /** Counted in {@code ledger} under {@code category} until closed. */
    CpuBuffer(long floats, MemoryLedger ledger, MemoryCategory category) {
        if (floats > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("CPU buffer of " + floats + " floats is too large");
        }
        this.data = new float[(int) floats];
        this.ledger = ledger;
        this.category = category;
        ledger.allocated(category, 4L * data.length);
    }

    @Override
    public long floats() {
        return data.length;
    }

    @Override
    public void close() {
        // Heap memory: the GC reclaims it once the model drops the reference; the ledger forgets it now.
        if (closed.compareAndSet(false, true)) {
            ledger.freed(category, 4L * data.length);
        }
    }
}
