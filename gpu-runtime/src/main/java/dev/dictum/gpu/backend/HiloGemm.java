package dev.dictum.gpu.backend;

import static dev.dictum.gpu.backend.GpuMemory.weight;
import static dev.dictum.gpu.backend.LaunchGeometry.BLOCK;
import static dev.dictum.gpu.backend.LaunchGeometry.ceil;

import dev.dictum.gpu.Epilogue;
import dev.dictum.gpu.Weight;
import dev.dictum.gpu.device.DeviceProps;
import dev.dictum.gpu.device.KernelArgs;
import dev.dictum.gpu.device.KernelCache;
import dev.dictum.gpu.device.Stream;

/**
 * The large GEMMs' path on sm_80+ (gemm.cu, ABI.md): x split once into f16 hi/lo planes
 * (split_f32_hilo), then the hilo entry {@link KernelChoice#hiloKernel} picks on them, with an f16
 * weight (a q8_0 one's f16 values from the weight scratch: {@link GpuMemory#dequantised}). Apart from
 * {@link GpuBackend}'s other launches because it owns the planes' lifetime (one buffer, grown) and
 * the question whether the loaded gemm image has the hilo bodies at all.
 */
final class HiloGemm {
    private final Stream stream;
    private final KernelCache kernels;
    private final GpuMemory memory;
    private final DeviceProps props;
    private String gemmImage;

    HiloGemm(Stream stream, KernelCache kernels, GpuMemory memory, DeviceProps props) {
        this.stream = stream;
        this.kernels = kernels;
        this.memory = memory;
        this.props = props;
    }

    /** Whether linear(rows, w) runs as split_f32_hilo + gemm_f16_hilo (see {@link KernelChoice#wideTile}). */
    boolean fits(int rows, Weight w) {
        GpuWeight g = weight(w);
        // a q8_0 matrix is multiplied from the weight scratch, an allocation of its own (256-byte aligned)
        boolean aligned = g.q8_0() || g.f16() % 16 == 0;
        return w.cols() % 8 == 0 && aligned
                && KernelChoice.wideTile(gemmImage(), rows, Math.toIntExact(w.rows()), Math.toIntExact(w.cols()),
                        props.multiprocessors());
    }

    /**
     * Whether entry {@code h} can run {@code n × k} weights at {@code w}'s address at all: an sm_80+
     * cubin of its body, k % 8 == 0, 16-byte alignment, and its shared memory within the opt-in maximum.
     */
    boolean canRun(KernelChoice.HiloKernel h, long w, int k) {
        return KernelChoice.hiloBody(gemmImage()) && k % 8 == 0 && w % 16 == 0
                && h.sharedBytes() <= props.sharedMemoryPerBlockOptin();
    }

    /** The gemm module's image ("sm_90/gemm.cubin", …): looked up once, it never changes. */
    private String gemmImage() {
        if (gemmImage == null) {
            gemmImage = kernels.module("gemm").image();
        }
        return gemmImage;
    }

    /** x's hi/lo planes (rows · k halves each, lo after hi); returns hi's address. */
    long split(long x, long count) {
        long hi = memory.hiloPlanes(4 * count).address();
        // a thread per 4 elements (one 16-byte load of x: ABI.md)
        memory.gridStride(kernels.kernel("gemm", "split_f32_hilo"), (count + 3) / 4,
                new KernelArgs().ptr(x).ptr(hi).ptr(hi + 2 * count).i64(count));
        return hi;
    }

    /**
     * The product on planes from {@link #split} with the f16 weight at {@code w}, through the entry
     * {@link KernelChoice#hiloKernel} picks.
     */
    void multiply(long hi, int rows, long w, Weight bias, long out, int n, int k, Epilogue epilogue) {
        multiply(KernelChoice.hiloKernel(rows, n, props.multiprocessors(), props.sharedMemoryPerBlockOptin()),
                hi, rows, w, bias, out, n, k, epilogue);
    }

    void multiply(KernelChoice.HiloKernel h, long hi, int rows, long w, Weight bias, long out, int n, int k,
            Epilogue epilogue) {
        long lo = hi + 2L * rows * k;
        kernels.kernel("gemm", h.name()).launch(stream, ceil(n, h.tileCols()), ceil(rows, h.tileRows()), 1, BLOCK,
                h.sharedBytes(), new KernelArgs().ptr(hi).ptr(lo).ptr(w)
                        .ptr(bias == null ? 0 : weight(bias).f16()).ptr(out).i32(rows).i32(n).i32(k)
                        .i32(KernelChoice.epilogueCode(epilogue)));
    }
}
