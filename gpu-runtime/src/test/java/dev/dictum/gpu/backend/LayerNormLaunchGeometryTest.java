package dev.dictum.gpu.backend;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * layer_norm_f32's grid (runs without a GPU): one warp per row, so LAYER_NORM_BLOCK / warpSize rows
 * a block, every row in one pass up to the 65535-block cap (past it the kernel's grid-stride loop
 * takes the rest).
 */
class LayerNormLaunchGeometryTest {
    @Test
    void aWarpPerRow() {
        int block = LaunchGeometry.LAYER_NORM_BLOCK;
        assertThat(LaunchGeometry.layerNormGrid(1500, block, 32)).isEqualTo(375); // 4 rows a block
        assertThat(LaunchGeometry.layerNormGrid(1500, block, 64)).isEqualTo(750); // 2 at wave 64
        assertThat(LaunchGeometry.layerNormGrid(1, block, 32)).isEqualTo(1); // a decoder step
        assertThat(LaunchGeometry.layerNormGrid(7, block, 32)).isEqualTo(2);
        assertThat(LaunchGeometry.layerNormGrid(5, 32, 32)).isEqualTo(5);
        assertThat(LaunchGeometry.layerNormGrid(1_000_000, block, 32)).isEqualTo(65535); // grid-stride past it
    }
}
