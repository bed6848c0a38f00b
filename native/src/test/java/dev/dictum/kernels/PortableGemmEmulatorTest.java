package dev.dictum.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * gemm_f16 and conv1d_gelu_f16 as every AMD target builds them (gemm_tile_portable_8x8.cuh, issue 22
 * item 2) on the CPU, no GPU needed: src/test/emu/gemm_portable_emu.cpp includes gemm.cu and
 * conv1d_gelu.cu with the portable body selected (-DDG_GEMM_PORTABLE, as the test-only module
 * gemm_portable is built), launches them on GpuBackend's 128 × 128 grid and compares with float64:
 * partial tiles, odd k and n, misaligned x, every epilogue, the convolutions' im2col. Run at wave32
 * (gfx10's HIP default) and wave64: the body uses no wave-wide operation, so both must pass.
 */
class PortableGemmEmulatorTest {
    @Test
    void thePortableGemmBodyMatchesFloat64AtWave32AndWave64() throws Exception {
        String cxx = KernelEmulator.requireCompiler();
        Path cudaInclude = KernelEmulator.requireCudaHeaders();
        Path exe = KernelEmulator.build("gemm_portable", cxx, List.of("-DDG_EMU_MMA", "-I" + cudaInclude),
                "gemm_portable_emu.cpp", "gemm_portable_emu");
        for (String wave : List.of("32", "64")) {
            assertThat(KernelEmulator.check("wave" + wave, exe, wave)).contains("wave" + wave + "\n");
        }
    }
}
