package dev.dictum.app.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.app.engine.GpuMemoryCheck.Need;
import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.model.ModelMemory;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The choice before a GPU load (issue 22) with made-up free-memory figures: the GPU when the model's
 * estimate fits what is free with the margin, else the CPU and a notice that names the figures, the
 * device and the largest installed model that would fit.
 */
class GpuMemoryCheckTest {
    private static final long GB = 1_000_000_000L;
    private static final String CARD = "Radeon RX 5700 XT";
    private static final WhisperDims LARGE_V3 = new WhisperDims(128, 1500, 1280, 20, 32, 51866, 448, 1280, 20, 32);
    private static final WhisperDims TURBO = new WhisperDims(128, 1500, 1280, 20, 32, 51866, 448, 1280, 20, 4);
    private static final WhisperDims SMALL = new WhisperDims(80, 1500, 768, 12, 12, 51865, 448, 768, 12, 12);

    /** As the app asks: the least the model needs, its encoder's blocks taking turns (issue 22). */
    private static Need need(String name, WhisperDims d) {
        return new Need(name, ModelMemory.onGpu(d).least().total());
    }

    @Test
    void aModelThatFitsStaysOnTheGpu() {
        // an 8 GB card with the desktop and a browser on it: 6.5 GB free
        assertThat(GpuMemoryCheck.decide(need("large-v3", LARGE_V3), 6_500_000_000L, CARD, List.of())).isNull();
    }

    @Test
    void aModelThatDoesNotFitRunsOnTheCpuAndTheNoticeNamesTheFigures() {
        String notice = GpuMemoryCheck.decide(new Need("large-v3", 4_600_000_000L), 3_100_000_000L, CARD, List.of());
        assertThat(notice).isEqualTo(
                "large-v3 needs about 4.6 GB of GPU memory; 3.1 GB is free on Radeon RX 5700 XT: using the CPU");
    }

    @Test
    void theNoticeNamesTheLargestInstalledModelThatWouldFit() {
        Need large = need("large-v3", LARGE_V3);
        List<Need> installed = List.of(need("small", SMALL), need("large-v3-turbo", TURBO), large,
                new Need("medium", 3_900_000_000L));
        // 4.0 GB free: 3.68 usable; large-v3 fits with its encoder's blocks in turns (2.74 GB; 3.9 whole)
        assertThat(GpuMemoryCheck.decide(large, 4 * GB, CARD, installed)).isNull();
        // 2.0 GB free: 1.84 usable; large-v3 (2.74 at the least) and medium (3.9) do not fit, turbo (0.66 with its
        // encoder in turns, 1.84 whole) does, and so does small (0.58): the larger is named
        String notice = GpuMemoryCheck.decide(large, 2 * GB, CARD, installed);
        assertThat(notice).isEqualTo("large-v3 needs about 2.7 GB of GPU memory; 2.0 GB is free on Radeon RX 5700 XT:"
                + " using the CPU (large-v3-turbo, about 0.7 GB, would fit)");
        // too little for any of them: no model named
        assertThat(GpuMemoryCheck.decide(large, GB / 2, CARD, installed)).endsWith("using the CPU");
    }

    @Test
    void theMarginIsKeptFree() {
        long free = 5 * GB;
        assertThat(GpuMemoryCheck.decide(new Need("m", free * 92 / 100), free, CARD, List.of())).isNull();
        assertThat(GpuMemoryCheck.decide(new Need("m", free * 92 / 100 + 1), free, CARD, List.of())).isNotNull();
        assertThat(GpuMemoryCheck.decide(new Need("m", free), free, CARD, List.of())).as("all of it").isNotNull();
    }

    @Test
    void theCpuBackendHasNothingToDecide() {
        Path toy = Path.of(System.getProperty("dictum.testdata"), "models", "toy-en", "ggml-toy-en.bin");
        assertThat(GpuMemoryCheck.check(toy, "toy-en", new CpuBackend(), List::of)).isNull();
    }
}
