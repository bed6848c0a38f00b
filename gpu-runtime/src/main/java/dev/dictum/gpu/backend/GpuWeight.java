package dev.dictum.gpu.backend;

import dev.dictum.gpu.HostTensor;
import dev.dictum.gpu.Weight;

/** A weight resident on the device as f16, in the file's (PyTorch) layout, in the backend's WeightArena. */
final class GpuWeight implements Weight {
    private final HostTensor source;
    private final long f16;

    GpuWeight(HostTensor source, long f16) {
        this.source = source;
        this.f16 = f16;
    }

    @Override
    public HostTensor source() {
        return source;
    }

    long address() {
        return f16;
    }
}
