package dev.dictum.gpu.device;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A loaded code object (HIP) or PTX/cubin (CUDA); its kernels are looked up once each. */
public final class Module implements AutoCloseable {
    private final Device device;
    private final String name;
    private final String image;
    private final long handle;
    private final Map<String, Kernel> kernels = new ConcurrentHashMap<>();
    private boolean closed;

    Module(Device device, String name, String image, long handle) {
        this.device = device;
        this.name = name;
        this.image = image;
        this.handle = handle;
    }

    public String name() {
        return name;
    }

    /** Which file was loaded, e.g. "gfx1010/gemm.hsaco". */
    public String image() {
        return image;
    }

    /** The kernel {@code kernelName}, looked up the first time (safe from any thread). */
    public Kernel kernel(String kernelName) {
        return kernels.computeIfAbsent(kernelName, k -> {
            device.bind();
            return new Kernel(device, this, k, device.driver().moduleGetFunction(handle, k, name));
        });
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            device.bind();
            device.driver().moduleUnload(handle);
        }
    }
}
