package dev.dictum.gpu.backend;

import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.MemoryCategory;
import dev.dictum.gpu.MemoryLedger;
import dev.dictum.gpu.device.DeviceBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

/** An activation buffer in device memory: f32, or f16 where {@link #half} (Backend#allocateHalf). */
final class GpuBuffer implements Buffer {
    final DeviceBuffer memory;
    private final long values;
    private final boolean half;
    private final MemoryLedger ledger;
    private final MemoryCategory category;
    private final AtomicBoolean closed = new AtomicBoolean();

    /** Counted in {@code ledger} under {@code category} until closed. */
    GpuBuffer(DeviceBuffer memory, long values, boolean half, MemoryLedger ledger, MemoryCategory category) {
        this.memory = memory;
        this.values = values;
        this.half = half;
        this.ledger = ledger;
        this.category = category;
        ledger.allocated(category, memory.bytes());
    }

    /** Bytes per value: 2 for an f16 buffer, else 4. */
    static int valueBytes(boolean half) {
        return half ? 2 : 4;
    }

    /** Whether the values are stored as f16. */
    boolean half() {
        return half;
    }

    /** Device address of value {@code index}. */
    long at(long index) {
        if (index < 0 || index > values) {
            throw new IndexOutOfBoundsException("value " + index + " of a buffer of " + values);
        }
        return memory.address(index * valueBytes(half));
    }

    @Override
    public long floats() {
        return values;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            memory.close();
            ledger.freed(category, memory.bytes());
        }
    }
}
