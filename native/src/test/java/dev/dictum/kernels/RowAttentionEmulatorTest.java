package dev.dictum.kernels;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * attention_rows.cu (beam search's self-attention through per-beam row tables, issue 22 item 4) on the
 * CPU, no GPU needed: src/test/emu/attention_rows_emu.cpp includes the kernel source under the CUDA
 * emulation (cuda_emu.h) and compares it with a float64 reference on random rows shared between beams,
 * head sizes 1..128, causal and unaligned rows, at warp sizes 32 and 64, blocks in both orders (bit for
 * bit). On a GPU the same kernel is GpuRowAttentionTest's.
 */
class RowAttentionEmulatorTest {
    @Test
    void theRowTableKernelMatchesFloat64OnTheCpu() throws Exception {
        String cxx = KernelEmulator.requireCompiler();
        String cudaEmu = KernelEmulator.EMU.resolve("cuda_emu.h").toString();
        KernelEmulator.buildAndCheck("attention_rows", cxx, List.of("-include", cudaEmu), "attention_rows_emu.cpp",
                "attention_rows_emu");
    }
}
