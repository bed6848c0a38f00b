package dev.dictum.gpu.backend;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Which GEMM entry a linear layer launches (GpuBackend.wideTile): the 128 × 128 tile only where its
 * own body was built (a cubin for sm_80+) and where its tiles fill the GPU; the 64 × 64 tile
 * everywhere else. The GPU op tests (GpuOpsTest.linear) run both entries against the CPU.
 */
class GemmTileChoiceTest {
    private static final int H100_SMS = 132;

    @Test
    void theLargeEncodersGemmsTakeTheWideTileOnAnH100() {
        // large-v3 / turbo: Q, K, V, out (1500 x 1280: 12 x 10 = 120 tiles), MLP up and down
        assertThat(GpuBackend.wideTile("sm_90/gemm.cubin", 1500, 1280, H100_SMS)).isTrue();
        assertThat(GpuBackend.wideTile("sm_90/gemm.cubin", 1500, 5120, H100_SMS)).isTrue();
        assertThat(GpuBackend.wideTile("sm_80/gemm.cubin", 1500, 1280, 108)).isTrue();
    }

    @Test
    void shapesThatLeaveSmsIdleKeepTheNarrowTile() {
        // tiny's and small's d_model projections: 36 and 72 tiles of 128 for 132 SMs
        assertThat(GpuBackend.wideTile("sm_90/gemm.cubin", 1500, 384, H100_SMS)).isFalse();
        assertThat(GpuBackend.wideTile("sm_90/gemm.cubin", 1500, 768, H100_SMS)).isFalse();
        // a prompt of 20 rows
        assertThat(GpuBackend.wideTile("sm_90/gemm.cubin", 20, 1280, H100_SMS)).isFalse();
        // the threshold: 99 of 132 SMs busy is the least that takes it
        assertThat(GpuBackend.wideTile("sm_90/gemm.cubin", 128 * 9, 128 * 11, H100_SMS)).isTrue();
        assertThat(GpuBackend.wideTile("sm_90/gemm.cubin", 128 * 7, 128 * 14, H100_SMS)).isFalse();
    }

    @Test
    void bodiesWithoutTheWideTileNeverTakeIt() {
        // the compute_75 PTX (JIT on GPUs without a cubin) and every AMD code object: there the 128
        // entry is four 64 tiles per block
        assertThat(GpuBackend.wideTile("ptx/gemm.ptx", 1500, 5120, H100_SMS)).isFalse();
        assertThat(GpuBackend.wideTile("gfx1010/gemm.hsaco", 1500, 5120, 40)).isFalse();
        assertThat(GpuBackend.wideTile("sm_75/gemm.cubin", 1500, 5120, 40)).isFalse();
    }

    @Test
    void twoBlocksPerSmOnlyWithTwoTilesPerSm() {
        // the MLP's first layer of large-v3 (480 tiles) and small (288); not d_model x d_model (120)
        // nor the MLP's second layer (120)
        assertThat(GpuBackend.hiloTwoPerSm(1500, 5120, H100_SMS)).isTrue();
        assertThat(GpuBackend.hiloTwoPerSm(1500, 3072, H100_SMS)).isTrue();
        assertThat(GpuBackend.hiloTwoPerSm(1500, 1280, H100_SMS)).isFalse();
        assertThat(GpuBackend.hiloTwoPerSm(128 * 12, 128 * 22, H100_SMS)).isTrue();
        assertThat(GpuBackend.hiloTwoPerSm(128 * 12, 128 * 21, H100_SMS)).isFalse();
    }
}
