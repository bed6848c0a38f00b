package dev.dictum.gpu.backend;

import dev.dictum.gpu.device.DeviceBuffer;
import dev.dictum.gpu.device.GpuDriver;
import dev.dictum.gpu.device.Stream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Page-locked host memory for the copies between host and device (async copies need it), and a
 * small ring of it mirrored on the device for the per-op int arrays (token ids, positions, key
 * counts): a slot is reused only after the stream has been synchronized since it was written, so
 * a copy still queued never sees its source overwritten.
 */
final class Staging implements AutoCloseable {
    static final long BULK_BYTES = 8L << 20;
    static final long RING_BYTES = 1L << 20;

    private final GpuDriver driver;
    private final Stream stream;
    private final long bulk;
    private final MemorySegment bulkView;
    private final long ring;
    private final MemorySegment ringView;
    private final DeviceBuffer ringOnDevice;
    private long ringUsed;

    Staging(GpuDriver driver, Stream stream, DeviceBuffer ringOnDevice) {
        this.driver = driver;
        this.stream = stream;
        this.bulk = driver.hostMalloc(BULK_BYTES);
        this.bulkView = MemorySegment.ofAddress(bulk).reinterpret(BULK_BYTES);
        this.ring = driver.hostMalloc(RING_BYTES);
        this.ringView = MemorySegment.ofAddress(ring).reinterpret(RING_BYTES);
        this.ringOnDevice = ringOnDevice;
    }

    /** Copies {@code src} (any host memory, e.g. a mapped file) to the device at {@code dst}; waits. */
    void toDevice(MemorySegment src, long dst) {
        long n = src.byteSize();
        for (long off = 0; off < n; off += BULK_BYTES) {
            long len = Math.min(BULK_BYTES, n - off);
            MemorySegment.copy(src, off, bulkView, 0, len);
            stream.copyToDevice(dst + off, bulk, len);
            stream.synchronize();
        }
    }

    void toDevice(float[] src, int srcOffset, long dst, int count) {
        long chunk = BULK_BYTES / 4;
        for (int done = 0; done < count; done += (int) chunk) {
            int len = (int) Math.min(chunk, count - done);
            MemorySegment.copy(src, srcOffset + done, bulkView, ValueLayout.JAVA_FLOAT, 0, len);
            stream.copyToDevice(dst + 4L * done, bulk, 4L * len);
            stream.synchronize();
        }
    }

    /** Waits for queued work, then copies {@code count} floats at {@code src} to the host. */
    void toHost(long src, float[] dst, int dstOffset, int count) {
        long chunk = BULK_BYTES / 4;
        if (count == 0) {
            stream.synchronize();
        }
        for (int done = 0; done < count; done += (int) chunk) {
            int len = (int) Math.min(chunk, count - done);
            stream.copyToHost(bulk, src + 4L * done, 4L * len);
            stream.synchronize();
            MemorySegment.copy(bulkView, ValueLayout.JAVA_FLOAT, 0, dst, dstOffset + done, len);
        }
    }

    /** Queues {@code values[0..count)} to a device slot and returns its address (valid for this op). */
    long ints(int[] values, int count) {
        long bytes = Math.max(4, (4L * count + 255) & ~255L);
        if (bytes > RING_BYTES) {
            throw new IllegalArgumentException(count + " ints do not fit the argument ring");
        }
        if (ringUsed + bytes > RING_BYTES) {
            stream.synchronize(); // every earlier slot's copy has run: the ring may be reused
            ringUsed = 0;
        }
        long off = ringUsed;
        ringUsed += bytes;
        MemorySegment.copy(values, 0, ringView, ValueLayout.JAVA_INT, off, count);
        long dst = ringOnDevice.address(off);
        stream.copyToDevice(dst, ring + off, 4L * count);
        return dst;
    }

    @Override
    public void close() {
        driver.hostFree(bulk);
        driver.hostFree(ring);
    }
}
