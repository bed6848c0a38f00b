package dev.dictum.app.dictation;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dictum.gpu.select.Backends;
import dev.dictum.gpu.backend.GpuBackend;
import dev.dictum.whisper.session.WhisperEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link SpeculationExactness} on each GPU backend usable here (the GPU bundle runs it with its toy's
 * q8_0 ggml and samples): the speculative and the from-scratch text come from the same device.
 */
class GpuSpeculationExactnessTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"toy-en", "toy-multi"})
    void theSpeculativeTextIsTheFromScratchTextOnTheGpu(String toy) throws Exception {
        Path model = SpeculationExactness.TESTDATA.resolve("models/" + toy + "/ggml-" + toy + "-q8_0.bin");
        Path samples = SpeculationExactness.TESTDATA.resolve("data/" + toy + "-samples");
        assumeTrue(Files.isRegularFile(model) && Files.isDirectory(samples), "skipped: no " + toy + " q8_0 model here");
        List<String> why = new ArrayList<>();
        int ran = 0;
        for (String api : List.of("cuda", "hip")) {
            GpuBackend gpu;
            try {
                gpu = Backends.openGpu(api);
            } catch (IllegalArgumentException e) {
                why.add(e.getMessage());
                continue;
            }
            try (WhisperEngine e = WhisperEngine.load(model, gpu)) {
                SpeculationExactness check = new SpeculationExactness(e, toy);
                check.checkAll(SpeculationExactness.samples(toy + "-samples"),
                        SpeculationExactness.seed(toy + " on " + api));
                System.out.printf("%s on %s: %d releases, %d from the speculation, %d before any speech%n", toy, api,
                        check.releases, check.speculativeReleases, check.unheardReleases);
                ran++;
            }
        }
        assumeTrue(ran > 0, "skipped: no GPU (" + String.join("; ", why) + ")");
    }
}
