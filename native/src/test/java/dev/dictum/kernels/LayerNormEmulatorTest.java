package dev.dictum.kernels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dictum.kernels.PortableAttentionEmulatorTest.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * layer_norm_f32 on the CPU, no GPU needed: src/test/emu/layer_norm_emu.cpp under cuda_emu.h's threads,
 * against float64, on both of its paths (the row read once into registers by 16-byte loads; element by
 * element where x is unaligned, the width odd or the row too wide for the block) at block sizes 32 to
 * 1024. The GPU op tests (GpuOpsTest.layerNormAtEveryBlockSize) run the same kernel on a device.
 */
class LayerNormEmulatorTest {
    private static final Path EMU = Path.of("src/test/emu");
    private static final Path KERNELS = Path.of("src/kernels");

    @Test
    void bothPathsMatchFloat64OnTheCpu() throws Exception {
        String cxx = PortableAttentionEmulatorTest.compiler();
        assumeTrue(cxx != null, "skipped: no g++ with C++20 <barrier> (the emulated kernel needs it)");
        Path cudaInclude = Path.of(System.getenv().getOrDefault("CUDA_HOME", "/usr/local/cuda"), "include");
        assumeTrue(Files.exists(cudaInclude.resolve("cuda_fp16.h")),
                "skipped: no CUDA headers at " + cudaInclude + " (the emulation takes __half from them)");
        Path out = Files.createDirectories(Path.of("target/emu"));
        Path exe = out.resolve("layer_norm_emu");
        Result build = PortableAttentionEmulatorTest.run(List.of(cxx, "-std=c++20", "-O2", "-w", "-I" + cudaInclude,
                "-I" + EMU, "-I" + KERNELS, "-o", exe.toString(), EMU.resolve("layer_norm_emu.cpp").toString(),
                "-lpthread"));
        assertThat(build.exit()).as("build:\n" + build.output()).isZero();
        Result r = PortableAttentionEmulatorTest.run(List.of(exe.toAbsolutePath().toString()));
        assertThat(r.output()).contains("0 failed").doesNotContain("FAIL");
        assertThat(r.exit()).as(r.output()).isZero();
    }
}
