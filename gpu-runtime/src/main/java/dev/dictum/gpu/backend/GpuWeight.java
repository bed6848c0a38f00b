package dev.dictum.gpu.backend;

import dev.dictum.gpu.HostTensor;
import dev.dictum.gpu.Weight;
import dev.dictum.gpu.device.DeviceBuffer;

/** A weight resident on the device as f16, in the file's (PyTorch) layout. */
final class GpuWeight implements Weight {
    private final HostTensor source;
    final DeviceBuffer f16;

    GpuWeight(HostTensor source, DeviceBuffer f16) {
        this.source = source;
        this.f16 = f16;
    }

    @Override
    public HostTensor source() {
        return source;
    }

    long address() {
        return f16.address();
    }
}
