package dev.dictum.kernels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dictum.kernels.PortableAttentionEmulatorTest.Result;
import java.nio.file.Files;
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
    private static final Path EMU = Path.of("src/test/emu");
    private static final Path KERNELS = Path.of("src/kernels");

    @Test
    void theDeepPipelineBodyMatchesFloat64OnTheCpu() throws Exception {
        String cxx = PortableAttentionEmulatorTest.compiler();
        assumeTrue(cxx != null, "skipped: no g++ with C++20 <barrier> (the emulated kernel needs it)");
        Path cudaInclude = Path.of(System.getenv().getOrDefault("CUDA_HOME", "/usr/local/cuda"), "include");
        assumeTrue(Files.exists(cudaInclude.resolve("cuda_fp16.h")),
                "skipped: no CUDA headers at " + cudaInclude + " (the emulation takes __half from them)");
        Path out = Files.createDirectories(Path.of("target/emu"));
        Path exe = out.resolve("gemm_emu");
        Result build = PortableAttentionEmulatorTest.run(List.of(cxx, "-std=c++20", "-O2", "-w", "-DDG_EMU_MMA",
                "-I" + cudaInclude, "-I" + EMU, "-I" + KERNELS, "-o", exe.toString(),
                EMU.resolve("gemm_emu.cpp").toString(), "-lpthread"));
        assertThat(build.exit()).as("build:\n" + build.output()).isZero();
        Result r = PortableAttentionEmulatorTest.run(List.of(exe.toAbsolutePath().toString()));
        assertThat(r.output()).contains("0 failed").doesNotContain("FAIL");
        assertThat(r.exit()).as(r.output()).isZero();
    }
}
