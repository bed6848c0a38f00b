package dev.dictum.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * attention_rows.cu (the decoder's self-attention: beam search's row tables, issue 22 item 4, and since
 * issue 22 item 1 every self-attention over the GPU's f16 caches) on the CPU, no GPU needed:
 * src/test/emu/attention_rows_emu.cpp includes the kernel source under the CUDA emulation (cuda_emu.h,
 * __half from CUDA's headers) and runs attention_rows_f32 and attention_rows_f16kv, through row tables
 * (random rows shared between beams) and strided (no table), head sizes 1..128, causal and unaligned
 * rows, at warp sizes 32 and 64, blocks in both orders (bit for bit), against float64: within 1e-5 of
 * the values the kernel reads, the f16 entry within 1e-3 of the f32 values before rounding (printed).
 * On a GPU the same kernels are GpuRowAttentionTest's and GpuSelfAttentionF16Test's.
 */
class RowAttentionEmulatorTest {
    @Test
    void bothEntriesMatchFloat64OnTheCpu() throws Exception {
        String cxx = KernelEmulator.requireCompiler();
        Path cudaInclude = KernelEmulator.requireCudaHeaders();
        String out = KernelEmulator.check("attention_rows", KernelEmulator.build("attention_rows", cxx,
                List.of("-I" + cudaInclude), "attention_rows_emu.cpp", "attention_rows_emu"));
        assertThat(out).contains("attention_rows_f16kv table   warp 64").contains("attention_rows_f16kv strided warp 32")
                .contains("attention_rows_f32 strided warp 64");
        System.out.print(out);
    }
}
