package dev.dictum.gpu.backend;

import dev.dictum.gpu.DType;
import dev.dictum.gpu.HostTensor;
import dev.dictum.gpu.Weight;

/**
 * A weight resident on the device, in the file's (PyTorch) layout, in the backend's WeightArena: as f16,
 * or (a q8_0 file's matrices, issue 22) as the file's q8_0 blocks, 34 bytes per 32 values, which only the
 * products (gemv_q8_0.cu, or dequantised into the weight scratch before a GEMM) and the embedding read.
 */
final class GpuWeight implements Weight {
    private final HostTensor source;
    private final long address;
    private final boolean q8_0;

    /**
     * Whether {@link GpuMemory#upload} keeps {@code t} as its q8_0 blocks: a q8_0 matrix (rank 2) whose rows are
     * whole blocks (every weight product's and the token table of a q8_0 file; ggml keeps vectors and the
     * convolutions in f16/f32). Anything else becomes f16.
     */
    static boolean keptAsQ8_0(HostTensor t) {
        return t.dtype() == DType.Q8_0 && t.rank() == 2 && t.cols() % 32 == 0;
    }

    GpuWeight(HostTensor source, long address, boolean q8_0) {
        this.source = source;
        this.address = address;
        this.q8_0 = q8_0;
    }

    @Override
    public HostTensor source() {
        return source;
    }

    /** Whether the device holds this weight as q8_0 blocks rather than f16. */
    boolean q8_0() {
        return q8_0;
    }

    /** The device address of the weight as held (f16 values or q8_0 blocks). */
    long address() {
        return address;
    }

    /** The device address of the f16 values, for an op that reads only f16; one line where it is q8_0. */
    long f16() {
        if (q8_0) {
            throw new IllegalArgumentException(source.describe() + " is held as q8_0 on the device; this op reads f16 "
                    + "(only the weight products and the token embedding read q8_0)");
        }
        return address;
    }
}
