package dev.dictum.app.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dictum.app.models.catalog.HardwareProfile;
import dev.dictum.app.models.catalog.ModelCatalog;
import dev.dictum.app.models.catalog.ModelRecommender;
import dev.dictum.gpu.device.DeviceProps;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class BackendSurveyTest {
    private static final long GIB = 1L << 30;
    private static final HardwareProfile TWO_CORES = new HardwareProfile(2, 16 * GIB, OptionalLong.empty(), null);
    private final ModelRecommender recommender = new ModelRecommender(ModelCatalog.builtIn());

    private static DeviceProps gpu(String name, long bytes) {
        return new DeviceProps(0, name, "gfx1010", "gfx1010:xnack-", bytes, 32, 36, 1024, 65536, 65536);
    }

    @Test
    void theChosenBackendsGpuLendsItsMemoryAndTheRecommendationGrows() {
        BackendSurvey s = new BackendSurvey(BackendSurvey.notYet().problems(),
                Map.of("hip", gpu("Radeon RX 5700", 8 * GIB)));

        HardwareProfile auto = s.hardware(TWO_CORES, "auto");
        assertThat(auto.gpuMemoryBytes()).hasValue(8 * GIB);
        assertThat(s.hardware(TWO_CORES, "HIP").gpuName()).isEqualTo("Radeon RX 5700");
        assertThat(recommender.recommend(TWO_CORES, false).variant().id()).isEqualTo("tiny/ggml-f16");
        var r = recommender.recommend(auto, false);
        assertThat(r.variant().id()).isEqualTo("large-v3-turbo/ggml-f16");
        assertThat(r.reason()).contains("Radeon RX 5700 with 8.0 GiB");

        // The CPU backend, or a GPU backend that is not usable here, leaves the decision to the CPU.
        assertThat(s.hardware(TWO_CORES, "cpu")).isEqualTo(TWO_CORES);
        assertThat(s.hardware(TWO_CORES, "cuda")).isEqualTo(TWO_CORES);
    }

    @Test
    void autoPrefersCudaAsOpeningDoes() {
        BackendSurvey s = new BackendSurvey(Map.of(), Map.of("hip", gpu("small", 2 * GIB), "cuda", gpu("big", 24 * GIB)));
        assertThat(s.gpuFor("auto")).map(DeviceProps::name).hasValue("big");
        assertThat(s.gpuFor("hip")).map(DeviceProps::name).hasValue("small");
    }

    @Test
    void beforeTheSurveyEveryBackendIsOfferedAndNoGpuIsKnown() {
        BackendSurvey s = BackendSurvey.notYet();
        assertThat(s.problems()).containsOnlyKeys("auto", "cpu", "cuda", "hip").containsValue(null);
        assertThat(s.hardware(TWO_CORES, "auto")).isEqualTo(TWO_CORES);
    }

    @Test
    void withoutAUsableGpuTheSurveySaysWhyAndTheCpuDecides() {
        // Here: Debian's libamdhip64.so.5 without a device, and no libcuda; the survey must neither throw nor hang.
        BackendSurvey s = assertTimeoutPreemptively(Duration.ofSeconds(60), BackendSurvey::run);
        assumeTrue(s.gpus().isEmpty(), "skipped: a GPU backend is usable here");
        assertThat(s.problems().get("cpu")).isNull();
        assertThat(s.problems().get("auto")).isNull();
        assertThat(s.problems().get("cuda")).contains("cuda backend");
        assertThat(s.problems().get("hip")).contains("hip backend");
        HardwareProfile here = HardwareProfile.ofThisMachine();
        assertThat(s.hardware(here, "auto")).isEqualTo(here);
        assertThat(recommender.recommend(s.hardware(here, "auto"), true).reason()).startsWith("No GPU backend");
    }

    @Test
    void aUsableGpuIsSurveyedWithItsMemory() {
        BackendSurvey s = assertTimeoutPreemptively(Duration.ofSeconds(120), BackendSurvey::run);
        assumeFalse(s.gpus().isEmpty(), "skipped: no GPU");
        DeviceProps d = s.gpuFor("auto").orElseThrow();
        assertThat(d.totalMemory()).isPositive();
        assertThat(s.problems().get(s.gpus().containsKey("cuda") ? "cuda" : "hip")).isNull();
        assertThat(s.hardware(HardwareProfile.ofThisMachine(), "auto").gpuMemoryBytes()).hasValue(d.totalMemory());
    }
}
