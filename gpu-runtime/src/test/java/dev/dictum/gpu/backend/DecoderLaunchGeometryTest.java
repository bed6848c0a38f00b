package dev.dictum.gpu.backend;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The host's launch geometry for the decoder kernels (runs without a GPU): gemv_f16's column split
 * must be the kernel's dg_gemv_split (the grid is sized from it), and cross_attention_f32's chunks
 * must always fit the fixed partial slots that a captured decoder-step graph points at.
 */
class DecoderLaunchGeometryTest {
    @Test
    void gemvSplitsOnlyLongRows() {
        // 4 warps of 32: k = 1280 (160 loads of 16 bytes) stays one warp per column; k = 5120 (the
        // MLP's down projection) 4 warps of 160 loads; small's 3072 2 warps; tiny's 1536 one.
        assertThat(LaunchGeometry.gemvSplit(1280, 4, 32)).isEqualTo(1);
        assertThat(LaunchGeometry.gemvSplit(5120, 4, 32)).isEqualTo(4);
        assertThat(LaunchGeometry.gemvSplit(3072, 4, 32)).isEqualTo(2);
        assertThat(LaunchGeometry.gemvSplit(1536, 4, 32)).isEqualTo(1);
        assertThat(LaunchGeometry.gemvSplit(5120, 2, 64)).isEqualTo(2); // wave64: 2 waves per block
        assertThat(LaunchGeometry.gemvSplit(7, 4, 32)).isEqualTo(1);
    }

    @Test
    void gemvGridCoversEveryColumnOnce() {
        assertThat(LaunchGeometry.gemvGrid(1280, 1280, 32)).isEqualTo(320);
        assertThat(LaunchGeometry.gemvGrid(1280, 5120, 32)).isEqualTo(1280);
        assertThat(LaunchGeometry.gemvGrid(51866, 1280, 32)).isEqualTo(12967);
        assertThat(LaunchGeometry.gemvGrid(1, 32, 32)).isEqualTo(1);
    }

    /**
     * Issue 22, q8_0 weights on the device: few rows read the blocks in place (gemv_q8_0); many rows
     * dequantise into the weight scratch for the f16 GEMM, except the token table, which would make the
     * scratch 127 MiB instead of turbo's 12.5 (its MLP matrix, the largest of a layer).
     */
    @Test
    void aQ8_0MatrixGoesToTheScratchOnlyForManyRowsAndNeverTheTokenTable() {
        assertThat(KernelChoice.dequantGemm(1, 1280, 1280)).as("a decoded token").isFalse();
        assertThat(KernelChoice.dequantGemm(8, 5120, 1280)).as("8 rows: still GEMV").isFalse();
        assertThat(KernelChoice.dequantGemm(9, 1280, 1280)).as("a prompt of 9").isTrue();
        assertThat(KernelChoice.dequantGemm(1500, 5120, 1280)).as("the encoder's MLP up").isTrue();
        assertThat(KernelChoice.dequantGemm(1500, 1280, 5120)).as("the encoder's MLP down").isTrue();
        assertThat(KernelChoice.dequantGemm(32, 51866, 1280)).as("a draft's logits: the table in place").isFalse();
        assertThat(KernelChoice.dequantGemm(32, 51865, 1280)).as("large-v2's table").isFalse();
        assertThat(2 * 5120L * 1280).isLessThanOrEqualTo(2 * KernelChoice.DEQUANT_GEMM_MAX_VALUES);
    }

    @Test
    void theLayerNormIsFusedIntoTheStepsGemvsButNotTheLogits() {
        int shared = 48 * 1024;
        assertThat(KernelChoice.normFused(3 * 1280, 1280, shared)).as("large-v3 Q/K/V").isTrue();
        assertThat(KernelChoice.normFused(5120, 1280, shared)).as("large-v3 MLP up").isTrue();
        assertThat(KernelChoice.normFused(1536, 384, shared)).as("tiny MLP up").isTrue();
        assertThat(KernelChoice.normFused(51866, 1280, shared)).as("logits: 12967 prologues").isFalse();
        assertThat(KernelChoice.normFused(100, 4096, shared)).as("32 KiB of row, gain and bias").isTrue();
        assertThat(KernelChoice.normFused(100, 4097, shared)).as("past 32 KiB").isFalse();
        assertThat(KernelChoice.normFused(100, 1280, 4096)).as("a device with 4 KiB per block").isFalse();
        // a single GEMV only while short (measured: the prologue costs more than a launch past ~2^20 weights)
        assertThat(KernelChoice.normLinearFused(384, 384, shared)).as("tiny cross query").isTrue();
        assertThat(KernelChoice.normLinearFused(1536, 384, shared)).as("tiny MLP up").isTrue();
        assertThat(KernelChoice.normLinearFused(768, 768, shared)).as("small cross query").isTrue();
        assertThat(KernelChoice.normLinearFused(3072, 768, shared)).as("small MLP up").isFalse();
        assertThat(KernelChoice.normLinearFused(1280, 1280, shared)).as("large-v3 cross query").isFalse();
        assertThat(KernelChoice.normLinearFused(5120, 1280, shared)).as("large-v3 MLP up").isFalse();
    }

    @Test
    void onlyTheLogitsRunPipelined() {
        assertThat(KernelChoice.pipelined(51866, 1280, 32, 0, 256)).as("large-v3 logits").isTrue();
        assertThat(KernelChoice.pipelined(51865, 384, 32, 0, 256)).as("tiny logits").isTrue();
        assertThat(KernelChoice.pipelined(5120, 1280, 32, 0, 256)).as("MLP up").isFalse();
        assertThat(KernelChoice.pipelined(51866, 1284, 32, 0, 256)).as("k % 8 != 0").isFalse();
        assertThat(KernelChoice.pipelined(51866, 1280, 32, 4, 256)).as("x not 16-byte aligned").isFalse();
        assertThat(KernelChoice.pipelined(51866, 2048, 32, 0, 256)).as("k 2048: split over 2 warps").isFalse();
        assertThat(KernelChoice.pipelined(51866, 1280, 64, 0, 256)).as("wave64").isTrue();
    }

    @Test
    void crossChunksFillTheGpuAndFitTheSlots() {
        assertThat(LaunchGeometry.crossChunks(1, 1500, 20, 64, 132)).isEqualTo(14); // large-v3 token, H100
        assertThat(LaunchGeometry.crossChunks(1, 1500, 6, 64, 132)).isEqualTo(24); // tiny: 64-key floor
        assertThat(LaunchGeometry.crossChunks(1, 1500, 20, 64, 40)).isEqualTo(4); // RX 5700 XT: 40 CUs
        assertThat(LaunchGeometry.crossChunks(14, 1500, 20, 64, 132)).isEqualTo(1); // 280 pairs fill it
        assertThat(LaunchGeometry.crossChunks(1, 1500, 2, 300, 132)).isEqualTo(1); // wider than a slot
        assertThat(LaunchGeometry.crossChunks(1, 1, 1, 1, 132)).isEqualTo(1);
        for (int sms : new int[] {1, 40, 132}) {
            for (int pairs = 1; pairs <= 600; pairs++) {
                int chunks = LaunchGeometry.crossChunks(pairs, 1500, 1, 64, sms);
                if (chunks == 1) {
                    continue; // one chunk writes its output directly: no partials, no tickets
                }
                assertThat((long) pairs * chunks).as("%d SMs, %d pairs", sms, pairs)
                        .isLessThanOrEqualTo((long) LaunchGeometry.CROSS_SLOTS_PER_SM * sms);
            }
        }
    }
}
