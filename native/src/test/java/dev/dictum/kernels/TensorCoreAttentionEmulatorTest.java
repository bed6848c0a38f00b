package dev.dictum.kernels;

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
    @Test
    void theTensorCoreBodiesMatchFloat64OnTheCpu() throws Exception {
        String cxx = KernelEmulator.requireCompiler();
        Path cudaInclude = KernelEmulator.requireCudaHeaders();
        for (String arch : List.of("750", "800")) {
            KernelEmulator.buildAndCheck("sm_" + arch, cxx,
                    List.of("-DDG_EMU_MMA", "-DDG_EMU_ARCH=" + arch, "-I" + cudaInclude), "attention_emu.cpp",
                    "attention_emu_sm" + arch);
        }
    }
}
