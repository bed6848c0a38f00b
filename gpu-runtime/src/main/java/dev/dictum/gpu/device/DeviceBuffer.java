package dev.dictum.gpu.device;

import java.util.concurrent.atomic.AtomicBoolean;

/** Device memory of {@link #bytes()} bytes; freed once by {@link #close()}. */
public final class DeviceBuffer implements AutoCloseable {
    private final Device device;
    private final long address;
    private final long bytes;
    private final AtomicBoolean closed = new AtomicBoolean();

    DeviceBuffer(Device device, long address, long bytes) {
        this.device = device;
        this.address = address;
        this.bytes = bytes;
    }

    /** The device address {@code byteOffset} bytes in (bounds checked). */
    public long address(long byteOffset) {
        if (byteOffset < 0 || byteOffset > bytes) {
            throw new IndexOutOfBoundsException("byte " + byteOffset + " of a " + bytes + "-byte device buffer");
        }
        if (closed.get()) {
            throw new IllegalStateException("device buffer used after close");
        }
        return address + byteOffset;
    }

    public long address() {
        return address(0);
    }

    public long bytes() {
        return bytes;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            device.bind();
            device.driver().free(address);
        }
    }
}
