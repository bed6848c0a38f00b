package dev.dictum.gpu.device;

/**
 * The one stream a backend orders all its work on: every launch and every copy names it (the
 * {@code *Async} copies), so nothing ever runs on the legacy default stream (seed 001).
 */
public final class Stream implements AutoCloseable {
    private final Device device;
    private final long handle;
    private boolean closed;

    Stream(Device device, long handle) {
        this.device = device;
        this.handle = handle;
    }

    public long handle() {
        return handle;
    }

    public Device device() {
        return device;
    }

    public void copyToDevice(long dst, long srcHost, long bytes) {
        device.bind();
        device.driver().copyHostToDeviceAsync(dst, srcHost, bytes, handle);
    }

    public void copyToHost(long dstHost, long src, long bytes) {
        device.bind();
        device.driver().copyDeviceToHostAsync(dstHost, src, bytes, handle);
    }

    public void copyOnDevice(long dst, long src, long bytes) {
        device.bind();
        device.driver().copyDeviceToDeviceAsync(dst, src, bytes, handle);
    }

    public void fill32(long dst, int value, long count) {
        device.bind();
        device.driver().memsetD32Async(dst, value, count, handle);
    }

    /** Marks with {@code event} (from {@link GpuDriver#eventCreate}) everything queued on this stream so far. */
    public void record(long event) {
        device.bind();
        device.driver().eventRecord(event, handle);
    }

    /** Makes what is queued on this stream from now on wait for {@code event}'s latest {@link #record}. */
    public void waitFor(long event) {
        device.bind();
        device.driver().streamWaitEvent(handle, event);
    }

    /** Waits until everything queued on this stream has run; a kernel's failure surfaces here. */
    public void synchronize() {
        device.bind();
        device.driver().streamSynchronize(handle);
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            device.bind();
            device.driver().streamDestroy(handle);
        }
    }
}
