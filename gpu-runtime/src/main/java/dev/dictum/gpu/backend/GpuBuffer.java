package dev.dictum.gpu.backend;

import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.device.DeviceBuffer;

/** An f32 activation buffer in device memory. */
final class GpuBuffer implements Buffer {
    final DeviceBuffer memory;
    private final long floats;

    GpuBuffer(DeviceBuffer memory, long floats) {
        this.memory = memory;
        this.floats = floats;
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
        memory.close();
    }
}
