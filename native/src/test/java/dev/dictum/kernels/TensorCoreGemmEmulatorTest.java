package dev.dictum.kernels;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * gemm_hilo_pipe.cuh's sm_80 body (gemm_f16_hilo_pipe and kernel_bench's variants) on the CPU, no
 * GPU needed: src/test/emu/gemm_emu.cpp, with mma_emu.h standing in for mma.sync, ldmatrix and
 * cp.async (a synchronous copy), at the product's tile (128 x 128, 4 stages of two 32-wide slices) and
 * the bench's others (128 x 64, 64 x 64; one or two slices per stage), against float64:
 * partial tiles, k not a multiple of 32, more k-slices than stages, every epilogue. A wrong stage,
 * swizzle, fragment or hi/lo term fails it; the asynchrony itself (the waits) only a GPU checks.
 */
class TensorCoreGemmEmulatorTest {
    @Test
    void theDeepPipelineBodyMatchesFloat64OnTheCpu() throws Exception {
        String cxx = KernelEmulator.requireCompiler();
        Path cudaInclude = KernelEmulator.requireCudaHeaders();
        KernelEmulator.buildAndCheck("gemm", cxx, List.of("-DDG_EMU_MMA", "-I" + cudaInclude), "gemm_emu.cpp",
                "gemm_emu");
    }
}
