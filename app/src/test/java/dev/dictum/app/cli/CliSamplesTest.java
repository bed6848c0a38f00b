package dev.dictum.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

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
 * The acceptance, literally: for every sample WAV, {@code dictum transcribe} prints exactly
 * the reference transcript from the Hugging Face folder and from the ggml file; for the
 * multilingual model it reports the right language and translates the non-English ones exactly.
 */
class CliSamplesTest {
    private static final Path DATA = CliRun.testdata().resolve("data");
    private static final Path MODELS = CliRun.testdata().resolve("models");

    static Stream<Arguments> english() throws IOException {
        List<Arguments> out = new ArrayList<>();
        for (String[] row : rows("toy-en-samples")) {
            for (String model : new String[] {"toy-en", "toy-en/ggml-toy-en.bin"}) {
                out.add(Arguments.of(model, row[0], row[1]));
            }
        }
        return out.stream();
    }

    static Stream<Arguments> multilingual() throws IOException {
        List<Arguments> out = new ArrayList<>();
        for (String[] row : rows("toy-multi-samples")) {
            for (String model : new String[] {"toy-multi", "toy-multi/ggml-toy-multi-q8_0.bin"}) {
                out.add(Arguments.of(model, row[0], row[1], row[2], row[3]));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("english")
    void englishSample(String model, String wav, String transcript) {
        CliRun r = CliRun.of("transcribe", "--model", MODELS.resolve(model).toString(),
                DATA.resolve("toy-en-samples").resolve(wav).toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo(transcript + System.lineSeparator());
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("multilingual")
    void multilingualSample(String model, String wav, String language, String transcript, String translation) {
        String file = DATA.resolve("toy-multi-samples").resolve(wav).toString();
        CliRun r = CliRun.of("transcribe", "--model", MODELS.resolve(model).toString(), "--language", "auto", file);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo(transcript + System.lineSeparator());
        assertThat(r.err()).startsWith("detected language: " + language + " ");
        if (!translation.isEmpty()) {
            CliRun t = CliRun.of("transcribe", "--model", MODELS.resolve(model).toString(), "--task", "translate",
                    file);
            assertThat(t.exitCode()).as(t.err()).isZero();
            assertThat(t.out()).isEqualTo(translation + System.lineSeparator());
        }
    }

    private static List<String[]> rows(String set) throws IOException {
        return Files.readAllLines(DATA.resolve(set).resolve("transcripts.tsv")).stream().skip(1)
                .filter(l -> !l.isBlank()).map(l -> l.split("\t", -1)).toList();
    }
}
