package dev.dictum.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * gemv_q8_0.cu on the CPU, no GPU needed (issue 22: q8_0 weights stay q8_0 on the device and the decoder's
 * few-row products read the blocks in place): src/test/emu/gemv_q8_0_emu.cpp runs every entry as
 * GpuBackend launches it (gemv_q8_0, gemv3_q8_0, gemv1_ln_q8_0, gemv3_1_q8_0, gemv3_1_q8_0kv) at Whisper's
 * widths and odd ones, every epilogue, warp sizes 32 and 64, blocks in both orders (bit for bit), against
 * float64 products of the dequantised weights (d · q in f32, as Dequant.java): within 1e-5, the f16 cache
 * rows within 1e-3 (their rounding). The kernel's dynamic shared memory becomes the emulation's array: the
 * source is copied with that one line changed. On a GPU the same kernels are GpuGemvQ8Test's.
 */
class GemvQ8EmulatorTest {
    private static final String DYNAMIC_SHARED = "extern __shared__ float sm[];";

    @Test
    void everyEntryMatchesFloat64OfTheDequantisedWeightsAtBothWarpSizes() throws Exception {
        String cxx = KernelEmulator.requireCompiler();
        Path cudaInclude = KernelEmulator.requireCudaHeaders();
        String source = Files.readString(KernelEmulator.KERNELS.resolve("gemv_q8_0.cu"));
        assertThat(source).as("the dynamic shared memory the emulation replaces").contains(DYNAMIC_SHARED);
        Path inc = Files.createDirectories(Path.of("target/emu/gemv_q8_0"));
        Files.writeString(inc.resolve("gemv_q8_0_emu.inc"), source.replace(DYNAMIC_SHARED, "float* sm = dynamicShared;"));
        String out = KernelEmulator.check("gemv_q8_0", KernelEmulator.build("gemv_q8_0", cxx,
                List.of("-I" + cudaInclude, "-I" + inc), "gemv_q8_0_emu.cpp", "gemv_q8_0_emu"));
        assertThat(out).contains("warpSize 32").contains("warpSize 64")
                .contains("gemv_q8_0 rows 1 n 40 k 5120").contains("gemv3_q8_0 rows 5 n 16 k 1280")
                .contains("gemv1_ln_q8_0 n 40 k 1280").contains("gemv3_1_q8_0 n 24 k 1280")
                .contains("gemv3_1_q8_0kv n 12 k 384");
        System.out.print(out);
    }
}
