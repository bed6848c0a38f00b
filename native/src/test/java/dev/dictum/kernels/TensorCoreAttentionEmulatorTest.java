package dev.dictum.kernels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dictum.kernels.PortableAttentionEmulatorTest.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * attention.cu's NVIDIA tensor-core bodies on the CPU, no GPU needed (issue 12): the same
 * src/test/emu/attention_emu.cpp as {@link PortableAttentionEmulatorTest}, built with -DDG_EMU_MMA so
 * that mma_emu.h stands in for mma.sync and ldmatrix (layouts from the PTX ISA, products in double)
 * and launched as GpuBackend launches the NVIDIA body (64 queries per block at head size <= 64).
 * Built as sm_75 compiles it (the sm_75 body alone, twice per 64-query block) and as sm_80+ does
 * (blocks of 33..64 queries through the m16n8k16 body): a wrong fragment index, mask or hi/lo term
 * fails it (a dropped hi.lo product: 2e-4; a causal mask of the wrong row: 0.1 and more).
 */
class TensorCoreAttentionEmulatorTest {
    private static final Path EMU = Path.of("src/test/emu");
    private static final Path KERNELS = Path.of("src/kernels");

    @Test
    void theTensorCoreBodiesMatchFloat64OnTheCpu() throws Exception {
        String cxx = PortableAttentionEmulatorTest.compiler();
        assumeTrue(cxx != null, "skipped: no g++ with C++20 <barrier> (the emulated kernel needs it)");
        Path cudaInclude = Path.of(System.getenv().getOrDefault("CUDA_HOME", "/usr/local/cuda"), "include");
        assumeTrue(Files.exists(cudaInclude.resolve("cuda_fp16.h")),
                "skipped: no CUDA headers at " + cudaInclude + " (the emulation takes __half from them)");
        Path out = Files.createDirectories(Path.of("target/emu"));
        for (String arch : List.of("750", "800")) {
            Path exe = out.resolve("attention_emu_sm" + arch);
            Result build = PortableAttentionEmulatorTest.run(List.of(cxx, "-std=c++20", "-O2", "-w", "-DDG_EMU_MMA",
                    "-DDG_EMU_ARCH=" + arch, "-I" + cudaInclude, "-I" + EMU, "-I" + KERNELS, "-o", exe.toString(),
                    EMU.resolve("attention_emu.cpp").toString(), "-lpthread"));
            assertThat(build.exit()).as("sm_" + arch + " build:\n" + build.output()).isZero();
            Result r = PortableAttentionEmulatorTest.run(List.of(exe.toAbsolutePath().toString()));
            assertThat(r.output()).as("sm_" + arch).contains("0 failed").doesNotContain("FAIL");
            assertThat(r.exit()).as("sm_" + arch + ":\n" + r.output()).isZero();
        }
    }
}
