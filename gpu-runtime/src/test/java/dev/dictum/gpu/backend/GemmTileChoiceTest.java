package dev.dictum.gpu.backend;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Which GEMM entry a linear layer launches (KernelChoice.wideTile): the 128 × 128 tile only where its
 * own body was built (a cubin for sm_80+) and where its tiles fill the GPU; the 64 × 64 tile
 * everywhere else. The GPU op tests (GpuOpsTest.linear) run both entries against the CPU.
 */
class GemmTileChoiceTest {
    private static final int H100_SMS = 132;

    @Test
    void theLargeEncodersGemmsTakeTheWideTileOnAnH100() {
        // large-v3 / turbo: Q, K, V, out (1500 x 1280: 12 x 10 = 120 tiles), MLP up and down
        assertThat(KernelChoice.wideTile("sm_90/gemm.cubin", 1500, 1280, 1280, H100_SMS)).isTrue();
        assertThat(KernelChoice.wideTile("sm_90/gemm.cubin", 1500, 5120, 1280, H100_SMS)).isTrue();
        assertThat(KernelChoice.wideTile("sm_80/gemm.cubin", 1500, 1280, 1280, 108)).isTrue();
    }

    @Test
    void shapesThatLeaveSmsIdleKeepTheNarrowTile() {
        // tiny's and small's d_model projections: 36 and 72 tiles of 128 for 132 SMs
        assertThat(KernelChoice.wideTile("sm_90/gemm.cubin", 1500, 384, 1280, H100_SMS)).isFalse();
        assertThat(KernelChoice.wideTile("sm_90/gemm.cubin", 1500, 768, 1280, H100_SMS)).isFalse();
        // a prompt of 20 rows
        assertThat(KernelChoice.wideTile("sm_90/gemm.cubin", 20, 1280, 1280, H100_SMS)).isFalse();
        // the threshold: 99 of 132 SMs busy is the least that takes it
        assertThat(KernelChoice.wideTile("sm_90/gemm.cubin", 128 * 9, 128 * 11, 1280, H100_SMS)).isTrue();
        assertThat(KernelChoice.wideTile("sm_90/gemm.cubin", 128 * 7, 128 * 14, 1280, H100_SMS)).isFalse();
    }

    @Test
    void bodiesWithoutTheWideTileNeverTakeIt() {
        // the compute_75 PTX (JIT on GPUs without a cubin) and every AMD code object: there the 128
        // entry is four 64 tiles per block
        assertThat(KernelChoice.wideTile("ptx/gemm.ptx", 1500, 5120, 1280, H100_SMS)).isFalse();
        assertThat(KernelChoice.wideTile("gfx1010/gemm.hsaco", 1500, 5120, 1280, 40)).isFalse();
        assertThat(KernelChoice.wideTile("sm_75/gemm.cubin", 1500, 5120, 1280, 40)).isFalse();
    }

    @Test
    void twoBlocksPerSmOnlyWithTwoTilesPerSm() {
        // the MLP's first layer of large-v3 (480 tiles) and small (288); not d_model x d_model (120)
        // nor the MLP's second layer (120)
        assertThat(KernelChoice.hiloTwoPerSm(1500, 5120, H100_SMS)).isTrue();
        assertThat(KernelChoice.hiloTwoPerSm(1500, 3072, H100_SMS)).isTrue();
        assertThat(KernelChoice.hiloTwoPerSm(1500, 1280, H100_SMS)).isFalse();
        assertThat(KernelChoice.hiloTwoPerSm(128 * 12, 128 * 22, H100_SMS)).isTrue();
        assertThat(KernelChoice.hiloTwoPerSm(128 * 12, 128 * 21, H100_SMS)).isFalse();
    }

    @Test
    void smallKKeepsTheNarrowTile() {
        // tiny's MLP up (k 384): gemm_f16 measured faster than every hilo entry; small's (k 768) not
        assertThat(KernelChoice.wideTile("sm_90/gemm.cubin", 1500, 1536, 384, H100_SMS)).isFalse();
        assertThat(KernelChoice.wideTile("sm_90/gemm.cubin", 1500, 3072, 768, H100_SMS)).isTrue();
        assertThat(KernelChoice.wideTile("sm_90/gemm.cubin", 1500, 5120, 512, H100_SMS)).isTrue();
        assertThat(KernelChoice.wideTile("sm_90/gemm.cubin", 1500, 5120, 504, H100_SMS)).isFalse();
    }

    // Opt-in shared memory per block (CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
    private static final int SM90_OPTIN = 232448; // 227 KiB
    private static final int SM80_OPTIN = 166912; // 163 KiB
    private static final int SM86_OPTIN = 101376; // 99 KiB (sm_89 the same)
    private static final int SM75_OPTIN = 65536;

    @Test
    void theDeepPipelineBelowTwoTilesPerSmWhereItsBlockFits() {
        // H100 / H200: large-v3's Q/K/V/out, MLP down, conv2 (1500 x 1280: 120 tiles of 128), an odd size
        for (int[] s : new int[][] {{1500, 1280}, {1499, 1288}, {128 * 9, 128 * 11}}) {
            assertThat(KernelChoice.hiloKernel(s[0], s[1], H100_SMS, SM90_OPTIN)).isEqualTo(KernelChoice.HILO_PIPE);
        }
        // its one block: 192 KiB, the least opt-in that takes it; an A100's 163 KiB keeps gemm_f16_hilo
        assertThat(KernelChoice.hiloKernel(1500, 1280, H100_SMS, 196608)).isEqualTo(KernelChoice.HILO_PIPE);
        assertThat(KernelChoice.hiloKernel(1500, 1280, H100_SMS, 196607)).isEqualTo(KernelChoice.HILO);
        assertThat(KernelChoice.hiloKernel(1500, 1280, 108, SM80_OPTIN)).isEqualTo(KernelChoice.HILO);
    }

    @Test
    void twoTilesPerSmKeepTheTwoStageTwoBlockEntryEverywhere() {
        // the MLP up of large-v3 (480 tiles) and small (288): measured faster than every deeper pipeline
        for (int optin : new int[] {SM90_OPTIN, SM80_OPTIN, SM86_OPTIN, SM75_OPTIN}) {
            assertThat(KernelChoice.hiloKernel(1500, 5120, H100_SMS, optin)).isEqualTo(KernelChoice.HILO_2BLK);
            assertThat(KernelChoice.hiloKernel(1500, 3072, H100_SMS, optin)).isEqualTo(KernelChoice.HILO_2BLK);
        }
    }

    @Test
    void smallerSharedMemoryKeepsTheTwoStageEntries() {
        // sm_86 / sm_89 (99 KiB) and sm_75 (64 KiB)
        assertThat(KernelChoice.hiloKernel(1500, 1280, 84, SM86_OPTIN)).isEqualTo(KernelChoice.HILO);
        assertThat(KernelChoice.hiloKernel(1500, 1280, 128, SM75_OPTIN)).isEqualTo(KernelChoice.HILO);
        assertThat(KernelChoice.hiloKernel(1500, 5120, 84, SM86_OPTIN)).isEqualTo(KernelChoice.HILO_2BLK);
    }

    @Test
    void theEntriesSharedMemoryIsWhatTheKernelsStage() {
        // dg_hilo_pipe_shared_ks(128, 128, 4, 2) = 4 stages x 2 slices x (hi, lo, w: 128 rows) x 32 halves
        assertThat(KernelChoice.HILO_PIPE.sharedBytes()).isEqualTo(4 * 2 * (128 + 128 + 128) * 32 * 2)
                .isEqualTo(196608);
        assertThat(KernelChoice.HILO_PIPE.tileRows()).isEqualTo(128);
        assertThat(KernelChoice.HILO_PIPE.tileCols()).isEqualTo(128);
        assertThat(KernelChoice.HILO.sharedBytes()).isZero(); // static 48 KiB inside the kernel
        assertThat(KernelChoice.HILO_2BLK.sharedBytes()).isZero();
        assertThat(KernelChoice.hiloBody("sm_90/gemm.cubin")).isTrue();
        assertThat(KernelChoice.hiloBody("sm_80/gemm.cubin")).isTrue();
        assertThat(KernelChoice.hiloBody("sm_75/gemm.cubin")).isFalse();
        assertThat(KernelChoice.hiloBody("ptx/gemm.ptx")).isFalse();
        assertThat(KernelChoice.hiloBody("gfx1010/gemm.hsaco")).isFalse();
    }
}
