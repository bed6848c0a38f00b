package dev.dictum.gpu.device;

import com.sun.jna.Memory;

/** One kernel of a {@link Module}, launched on a {@link Stream}. */
public final class Kernel {
    private final Device device;
    private final Module module;
    private final String name;
    private final long function;

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

    /** Queues one launch; a failure names this kernel and its module. */
    public void launch(Stream stream, int gridX, int gridY, int gridZ, int block, int sharedBytes, KernelArgs args) {
        if (gridX < 1 || gridY < 1 || gridZ < 1 || block < 1) {
            throw new IllegalArgumentException(name + ": empty launch " + gridX + "x" + gridY + "x" + gridZ
                    + " blocks of " + block);
        }
        device.bind();
        try (Memory params = args.toNative()) {
            device.driver().launch(function, gridX, gridY, gridZ, block, 1, 1, sharedBytes, stream.handle(), params,
                    name, module.name());
        }
    }
}
