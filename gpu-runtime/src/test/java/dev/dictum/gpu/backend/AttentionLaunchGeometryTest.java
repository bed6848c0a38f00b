package dev.dictum.gpu.backend;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * attention_f32's queries per block (runs without a GPU). The portable body (AMD, the HIP stand-in,
 * the test-only module attention_portable on CUDA) takes exactly 32 queries per block from
 * blockIdx.x, so any other grid would skip queries; the NVIDIA body divides the queries by gridDim.x
 * itself and takes 64 per block at head sizes up to 64, where its sm_80+ path stages each K/V tile
 * once for 64 queries (issue 12).
 */
class AttentionLaunchGeometryTest {
    @Test
    void theTensorCoreBodyTakes64QueriesPerBlockUpToHeadSize64() {
        assertThat(LaunchGeometry.attentionQueriesPerBlock("cuda", "attention", 64)).isEqualTo(64);
        assertThat(LaunchGeometry.attentionQueriesPerBlock("cuda", "attention", 17)).isEqualTo(64);
        assertThat(LaunchGeometry.attentionQueriesPerBlock("cuda", "attention", 65)).isEqualTo(32);
        assertThat(LaunchGeometry.attentionQueriesPerBlock("cuda", "attention", 128)).isEqualTo(32);
    }

    @Test
    void thePortableBodyAlwaysTakes32() {
        for (int hd : new int[] {1, 64, 128}) {
            assertThat(LaunchGeometry.attentionQueriesPerBlock("hip", "attention", hd)).isEqualTo(32);
            assertThat(LaunchGeometry.attentionQueriesPerBlock("cuda", "attention_portable", hd)).isEqualTo(32);
        }
    }
}
