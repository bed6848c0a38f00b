package dev.dictum.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every sample WAV through {@code --backend cuda} and {@code --backend hip} prints exactly what
 * {@code --backend cpu} prints (and the reference transcript): transcription, the detected
 * language, translation, beam search. Uses the toy models' q8_0 ggml files (what the GPU bundle carries).
 */
class CliGpuSamplesTest {
    private static final Path DATA = CliRun.testdata().resolve("data");
    private static final Path MODELS = CliRun.testdata().resolve("models");
    private static String doctor;

    static Stream<Arguments> samples() throws IOException {
        List<Arguments> out = new ArrayList<>();
        for (String api : List.of("cuda", "hip")) {
            for (String[] set : new String[][] {{"toy-en", "toy-en-samples"}, {"toy-multi", "toy-multi-samples"}}) {
                Path tsv = DATA.resolve(set[1]).resolve("transcripts.tsv");
                Path model = MODELS.resolve(set[0]).resolve("ggml-" + set[0] + "-q8_0.bin");
                if (!Files.isRegularFile(tsv) || !Files.isRegularFile(model)) {
                    continue;
                }
                for (String l : Files.readAllLines(tsv).stream().skip(1).filter(x -> !x.isBlank()).toList()) {
                    out.add(Arguments.of(api, model.toString(), DATA.resolve(set[1]).resolve(l.split("\t")[0])
                            .toString(), l.split("\t", -1), l.split("\t")[0]));
                }
            }
        }
        return out.stream();
    }

    private static void assumeGpu(String api) {
        if (doctor == null) {
            doctor = CliRun.of("doctor").out();
        }
        assumeTrue(doctor.contains("backend: auto uses") && doctor.matches("(?s).*usable: [a-z, ]*" + api
                + ".*"), "skipped: no GPU (" + api + " unusable here)");
    }

    @ParameterizedTest(name = "{0} {4}")
    @MethodSource("samples")
    void sameTextAsTheCpu(String api, String model, String wav, String[] row, String name) {
        assumeGpu(api);
        boolean multi = row.length >= 4;
        List<List<String>> runs = new ArrayList<>();
        runs.add(List.of("--language", "auto"));
        if (multi && !row[3].isEmpty()) {
            runs.add(List.of("--task", "translate"));
        }
        runs.add(List.of("--beam", "5")); // beam search: five sequences decoded as one batch on the device
        for (List<String> extra : runs) {
            List<String> args = new ArrayList<>(List.of("transcribe", "--model", model));
            args.addAll(extra);
            args.add(wav);
            List<String> cpuArgs = new ArrayList<>(args);
            cpuArgs.addAll(1, List.of("--backend", "cpu"));
            List<String> gpuArgs = new ArrayList<>(args);
            gpuArgs.addAll(1, List.of("--backend", api));
            CliRun cpu = CliRun.of(cpuArgs.toArray(String[]::new));
            CliRun gpu = CliRun.of(gpuArgs.toArray(String[]::new));
            assertThat(gpu.exitCode()).as(gpu.err()).isZero();
            assertThat(gpu.out()).as("%s %s %s", api, wav, extra).isEqualTo(cpu.out());
            if (!extra.contains("--beam")) {
                String expected = extra.contains("translate") ? row[3] : row[multi ? 2 : 1];
                assertThat(gpu.out()).isEqualTo(expected + System.lineSeparator());
            }
            if (multi && extra.contains("auto")) {
                assertThat(gpu.err()).startsWith("detected language: " + row[1] + " ");
                assertThat(gpu.err().lines().findFirst()).isEqualTo(cpu.err().lines().findFirst());
            }
        }
    }
}
