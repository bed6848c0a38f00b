package dev.dictum.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * cross_attention.cu on the CPU, no GPU needed (issue 22): src/test/emu/cross_attention_emu.cpp runs
 * every entry (f32 and f16 keys/values, the generic and the 64-wide head) as GpuBackend launches them,
 * at warp size 32 and 64, against float64: the kernel's own error within 1e-5, and the f16 entries
 * within 1e-3 of float64 over the values before they were rounded to f16 (both printed). The kernel's
 * dynamic shared memory becomes the emulation's array: the source is copied with that one line changed.
 */
class CrossAttentionEmulatorTest {
    private static final String DYNAMIC_SHARED = "extern __shared__ float sm[];";

    @Test
    void everyEntryMatchesFloat64AtBothWarpSizes() throws Exception {
        String cxx = KernelEmulator.requireCompiler();
        Path cudaInclude = KernelEmulator.requireCudaHeaders();
        String source = Files.readString(KernelEmulator.KERNELS.resolve("cross_attention.cu"));
        assertThat(source).as("the dynamic shared memory the emulation replaces").contains(DYNAMIC_SHARED);
        Path inc = Files.createDirectories(Path.of("target/emu/cross_attention"));
        Files.writeString(inc.resolve("cross_attention_emu.inc"),
                source.replace(DYNAMIC_SHARED, "float* sm = dynamicShared;"));
        String out = KernelEmulator.check("cross_attention",
                KernelEmulator.build("cross_attention", cxx, List.of("-I" + cudaInclude, "-I" + inc),
                        "cross_attention_emu.cpp", "cross_attention_emu"));
        assertThat(out).contains("warpSize 32").contains("warpSize 64").contains("cross_attention_f16kv_hd64 rows 1 keys 1500 heads 20");
        System.out.print(out);
    }
}
