package dev.dictum.gpu.backend;

import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.MemoryCategory;
import dev.dictum.gpu.MemoryLedger;
import dev.dictum.gpu.device.DeviceBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

/** An f32 activation buffer in device memory. */
final class GpuBuffer implements Buffer {
    final DeviceBuffer memory;
    private final long floats;
    private final MemoryLedger ledger;
    private final MemoryCategory category;
    private final AtomicBoolean closed = new AtomicBoolean();

    /** Counted in {@code ledger} under {@code category} until closed. */
    GpuBuffer(DeviceBuffer memory, long floats, MemoryLedger ledger, MemoryCategory category) {
        this.memory = memory;
        this.floats = floats;
        this.ledger = ledger;
        this.category = category;
        ledger.allocated(category, memory.bytes());
    }

    /** Device address of float {@code index}. */
    long at(long index) {
        if (index < 0 || index > floats) {
            throw new IndexOutOfBoundsException("float " + index + " of a buffer of " + floats);
        }
        return memory.address(index * 4);
    }

    @Override
    public long floats() {
        return floats;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            memory.close();
            ledger.freed(category, memory.bytes());
        }
    }
}
