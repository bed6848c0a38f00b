package dev.dictum.gpu.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** DICTUM_GPU_MEMORY_MIB, the user's limit on what a model may hold on the GPU (issue 22): read or refused in one line. */
class GpuMemoryLimitTest {

    @Test
    void unsetOrBlankIsNoLimitAndMiBAreBytes() {
        assertThat(GpuMemory.limitFrom(null)).isEqualTo(GpuMemory.NO_LIMIT);
        assertThat(GpuMemory.limitFrom("  ")).isEqualTo(GpuMemory.NO_LIMIT);
        assertThat(GpuMemory.limitFrom("1500")).isEqualTo(1500L << 20);
        assertThat(GpuMemory.limitFrom(" 3072 ")).isEqualTo(3072L << 20);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-5", "1.5G", "lots", "99999999999999999999"})
    void anythingElseIsRefusedSayingWhatItHolds(String value) {
        assertThatThrownBy(() -> GpuMemory.limitFrom(value)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("DICTUM_GPU_MEMORY_MIB must be a whole number of MiB above 0, got '" + value + "'");
    }
}
