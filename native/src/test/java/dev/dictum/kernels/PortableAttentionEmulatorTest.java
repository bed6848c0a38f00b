package dev.dictum.kernels;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * attention.cu's portable body (the one every AMD target runs; issue 12) on the CPU, no GPU needed:
 * src/test/emu/attention_emu.cpp includes the kernel source under a small CUDA emulation
 * (cuda_emu.h: 128 threads per block, barriers, shuffles) and compares it with a float64 reference
 * at scaled-down Whisper shapes, head sizes 1..128, causal and unaligned rows. Built twice: as
 * gfx10 compiles it (4 queries per lane for head size 64) and as gfx1100 does (2 per lane). On a
 * CUDA device the same body runs as the test-only module attention_portable (GpuOpsTest).
 */
class PortableAttentionEmulatorTest {
    @Test
    void thePortableBodyMatchesFloat64OnTheCpu() throws Exception {
        String cxx = KernelEmulator.requireCompiler();
        String cudaEmu = KernelEmulator.EMU.resolve("cuda_emu.h").toString();
        KernelEmulator.buildAndCheck("gfx10", cxx, List.of("-DDG_ATTENTION_PORTABLE", "-include", cudaEmu),
                "attention_emu.cpp", "attention_emu_gfx10");
        KernelEmulator.buildAndCheck("gfx1100", cxx,
                List.of("-DDG_ATTENTION_PORTABLE", "-D__gfx1100__", "-include", cudaEmu), "attention_emu.cpp",
                "attention_emu_gfx1100", "hd64");
    }
}
