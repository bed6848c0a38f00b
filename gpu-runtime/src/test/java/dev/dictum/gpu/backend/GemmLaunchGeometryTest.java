package dev.dictum.gpu.backend;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * gemm_f16's and conv1d_gelu_f16's tile per block (runs without a GPU). Each body computes the tile at
 * blockIdx · its own side, so the grid must be cut by that side: a 64 grid on the portable body's 128
 * would compute every tile four times over, a 128 grid on the NVIDIA bodies' 64 would leave three
 * quarters of out unwritten (issue 22 item 2).
 */
class GemmLaunchGeometryTest {
    @Test
    void everyAmdCodeObjectAndTheTestOnlyPortableModulesTake128() {
        for (String image : new String[] {"gfx1010/gemm.hsaco", "gfx1100/conv1d_gelu.hsaco", "sm_90/gemm_portable.cubin",
            "ptx/gemm_portable.ptx", "sm_80/conv1d_gelu_portable.cubin"}) {
            assertThat(LaunchGeometry.gemmTile(image)).as(image).isEqualTo(128);
        }
    }

    @Test
    void theNvidiaBodiesTake64() {
        for (String image : new String[] {"sm_90/gemm.cubin", "sm_80/conv1d_gelu.cubin", "ptx/gemm.ptx"}) {
            assertThat(LaunchGeometry.gemmTile(image)).as(image).isEqualTo(64);
        }
    }
}
