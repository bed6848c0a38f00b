package dev.dictum.gpu.device;

/**
 * One GPU as a driver sees it. Calls from any thread first {@link #bind()} it (the current device or
 * context is per thread in both HIP and CUDA).
 */
public final class Device {
    private final GpuDriver driver;
    private final DeviceProps props;
    private final ThreadLocal<Boolean> bound = ThreadLocal.withInitial(() -> false);

    public Device(GpuDriver driver, int ordinal) {
        this.driver = driver;
        driver.setDevice(ordinal);
        this.props = driver.properties(ordinal);
        bound.set(true);
    }

    /** Makes this device current on the calling thread (once per thread). */
    public void bind() {
        if (!bound.get()) {
            driver.setDevice(props.ordinal());
            bound.set(true);
        }
    }

    public GpuDriver driver() {
        return driver;
    }

    public DeviceProps props() {
        return props;
    }

    /** {free, total} bytes now. */
    public long[] memoryInfo() {
        bind();
        return driver.memoryInfo();
    }

    public DeviceBuffer allocate(long bytes) {
        bind();
        return new DeviceBuffer(this, driver.malloc(Math.max(bytes, 4)), bytes);
    }

    public Stream newStream() {
        bind();
        return new Stream(this, driver.streamCreate());
    }
}
