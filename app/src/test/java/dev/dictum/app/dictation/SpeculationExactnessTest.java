package dev.dictum.app.dictation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.whisper.session.WhisperEngine;
import org.junit.jupiter.api.Test;

/**
 * {@link SpeculationExactness} on the CPU backend, over every pair of toy-en and of toy-multi
 * samples: 15 + 28 pairs at five release points each, 215 per run, from a seed in the log.
 */
class SpeculationExactnessTest {

    @Test
    void everyEnglishPairGivesTheFromScratchTextAtAnyReleasePoint() throws Exception {
        try (WhisperEngine e = WhisperEngine.load(SpeculationExactness.TESTDATA.resolve("models/toy-en/ggml-toy-en.bin"),
                new CpuBackend())) {
            SpeculationExactness check = new SpeculationExactness(e, "toy-en");
            check.checkAll(SpeculationExactness.samples("toy-en-samples"), SpeculationExactness.seed("toy-en"));
            assertThat(check.releases + check.unheardReleases).isEqualTo(15 * 5);
            assertThat(check.unheardReleases).as("only points inside the first sample may precede its speech")
                    .isLessThanOrEqualTo(15);
            // Two of the five points per pair wait for the speculation (asserted in check); the others may use it.
            assertThat(check.speculativeReleases).isGreaterThanOrEqualTo(15 * 2);
            assertThat(check.cutReleases).as("releases whose reference was cut into pieces").isPositive();
        }
    }

    @Test
    void everyMultilingualPairGivesTheFromScratchTextAtAnyReleasePoint() throws Exception {
        try (WhisperEngine e = WhisperEngine.load(SpeculationExactness.TESTDATA.resolve("models/toy-multi"),
                new CpuBackend())) {
            SpeculationExactness check = new SpeculationExactness(e, "toy-multi");
            check.checkAll(SpeculationExactness.samples("toy-multi-samples"), SpeculationExactness.seed("toy-multi"));
            assertThat(check.releases + check.unheardReleases).isEqualTo(28 * 5);
            assertThat(check.unheardReleases).as("only points inside the first sample may precede its speech")
                    .isLessThanOrEqualTo(28);
            assertThat(check.speculativeReleases).isGreaterThanOrEqualTo(28 * 2);
            assertThat(check.cutReleases).as("releases whose reference was cut into pieces").isPositive();
        }
    }
}
