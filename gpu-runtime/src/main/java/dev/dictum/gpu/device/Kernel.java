package dev.dictum.gpu.device;

import com.sun.jna.Memory;

/** One kernel of a {@link Module}, launched on a {@link Stream}. */
public final class Kernel {
    private final Device device;
    private final Module module;
    private final String name;
    private final long function;
    /** Dynamic shared bytes this kernel has been opted in to (0: the default limit only). */
    private volatile int sharedOptIn;

    Kernel(Device device, Module module, String name, long function) {
        this.device = device;
        this.module = module;
        this.name = name;
        this.function = function;
    }

    public String name() {
        return name;
    }

    public Module module() {
        return module;
    }

    /** Registers per thread, as the runtime reports them. */
    public int registers() {
        device.bind();
        try {
            return device.driver().functionRegisters(function);
        } catch (GpuException e) {
            throw e.in(name, module.name());
        }
    }

    /**
     * Queues one launch; a failure names this kernel and its module. {@code sharedBytes} above the
     * device's default per-block limit opts the kernel in first (once per kernel and size: cached), up
     * to {@link DeviceProps#sharedMemoryPerBlockOptin}; beyond that the launch is refused.
     */
    public void launch(Stream stream, int gridX, int gridY, int gridZ, int block, int sharedBytes, KernelArgs args) {
        if (gridX < 1 || gridY < 1 || gridZ < 1 || block < 1) {
            throw new IllegalArgumentException(name + ": empty launch " + gridX + "x" + gridY + "x" + gridZ
                    + " blocks of " + block);
        }
        device.bind();
        if (sharedBytes > device.props().sharedMemoryPerBlock()) {
            optIn(sharedBytes);
        }
        try (Memory params = args.toNative()) {
            device.driver().launch(function, gridX, gridY, gridZ, block, 1, 1, sharedBytes, stream.handle(), params,
                    name, module.name());
        }
    }

    private synchronized void optIn(int bytes) {
        if (bytes <= sharedOptIn) {
            return;
        }
        int max = device.props().sharedMemoryPerBlockOptin();
        if (bytes > max) {
            throw new IllegalArgumentException(name + " (" + module.name() + "): " + bytes
                    + " bytes of shared memory per block; the device allows " + max);
        }
        device.driver().functionMaxDynamicShared(function, bytes, name, module.name());
        sharedOptIn = bytes;
    }
}
