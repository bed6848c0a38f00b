package dev.dictum.gpu.backend;

import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.MemoryCategory;
import dev.dictum.gpu.MemoryLedger;
import dev.dictum.gpu.device.DeviceBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An activation buffer in device memory: f32, or f16 where {@link #half} (Backend#allocateHalf). It owns
 * its device memory, or is one of a set that shares one allocation ({@link Shared}: a decoder's K/V caches,
 * a window's cross K/V), whose memory goes back when the last of the set is closed.
 */
final class GpuBuffer implements Buffer {
    private final DeviceBuffer memory;
    private final long base;
    private final long bytes;
    private final Shared shared;
    private final long values;
    private final boolean half;
    private final MemoryLedger ledger;
    private final MemoryCategory category;
    private final AtomicBoolean closed = new AtomicBoolean();

    /** Owns {@code memory}; counted in {@code ledger} under {@code category} until closed. */
    GpuBuffer(DeviceBuffer memory, long values, boolean half, MemoryLedger ledger, MemoryCategory category) {
        this(memory, 0, memory.bytes(), null, values, half, ledger, category);
    }

    /** {@code bytes} of {@code shared}'s memory from byte {@code base}; counted as those bytes until closed. */
    GpuBuffer(Shared shared, long base, long bytes, long values, boolean half, MemoryLedger ledger,
            MemoryCategory category) {
        this(shared.memory, base, bytes, shared, values, half, ledger, category);
    }

    private GpuBuffer(DeviceBuffer memory, long base, long bytes, Shared shared, long values, boolean half,
            MemoryLedger ledger, MemoryCategory category) {
        this.memory = memory;
        this.base = base;
        this.bytes = bytes;
        this.shared = shared;
        this.values = values;
        this.half = half;
        this.ledger = ledger;
        this.category = category;
        ledger.allocated(category, bytes);
    }

    /**
     * One device allocation that a set of buffers divides (why: the driver hands out memory in 2 MiB pages,
     * so large-v3's 64 K/V caches of a decoder, 1.09 MiB each at batch 1, took 2 MiB each: 92 MiB of
     * rounding over its two decoders, 21 more over a window's cross K/V). Freed with the last of the set.
     */
    static final class Shared {
        final DeviceBuffer memory;
        private int open;

        Shared(DeviceBuffer memory, int buffers) {
            this.memory = memory;
            this.open = buffers;
        }

        synchronized void release() {
            if (--open == 0) {
                memory.close();
            }
        }
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
        return memory.address(base + index * valueBytes(half));
    }

    @Override
    public long floats() {
        return values;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            if (shared == null) {
                memory.close();
            } else {
                shared.release();
            }
            ledger.freed(category, bytes);
        }
    }
}
