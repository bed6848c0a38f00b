package dev.dictum.app.dictation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.whisper.session.WhisperEngine;
import org.junit.jupiter.api.Test;

/** {@link SpeculationExactness} on the CPU backend, over every toy-en and toy-multi sample. */
class SpeculationExactnessTest {

    @Test
    void everyEnglishSampleGivesTheFromScratchTextAtAnyReleasePoint() throws Exception {
        try (WhisperEngine e = WhisperEngine.load(SpeculationExactness.TESTDATA.resolve("models/toy-en/ggml-toy-en.bin"),
                new CpuBackend())) {
            SpeculationExactness check = new SpeculationExactness(e, "toy-en");
            check.checkAll(SpeculationExactness.samples("toy-en-samples"), 13);
            assertThat(check.speculativeReleases).isGreaterThanOrEqualTo(6);
        }
    }

    @Test
    void everyMultilingualSampleGivesTheFromScratchTextAtAnyReleasePoint() throws Exception {
        try (WhisperEngine e = WhisperEngine.load(SpeculationExactness.TESTDATA.resolve("models/toy-multi"),
                new CpuBackend())) {
            SpeculationExactness check = new SpeculationExactness(e, "toy-multi");
            check.checkAll(SpeculationExactness.samples("toy-multi-samples"), 14);
            assertThat(check.speculativeReleases).isGreaterThanOrEqualTo(8);
        }
    }
}
