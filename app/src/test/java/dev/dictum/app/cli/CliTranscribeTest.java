package dev.dictum.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** What a user sees: the transcript on stdout, the language on stderr, JSON and segments on request. */
class CliTranscribeTest {
    private static final Path DATA = CliRun.testdata().resolve("data");
    private static final Path MODELS = CliRun.testdata().resolve("models");

    @Test
    void printsExactlyTheTranscript() {
        CliRun r = CliRun.of("transcribe", "--model", MODELS.resolve("toy-en").toString(),
                DATA.resolve("toy-en-samples/sample_03.wav").toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("We are out of cheese and tea." + System.lineSeparator());
        assertThat(r.err()).isEmpty();
    }

    @Test
    void beamSearchGivesTheSameTranscript() {
        CliRun r = CliRun.of("transcribe", "--beam", "4", "--patience", "1.5", "--model",
                MODELS.resolve("toy-en/ggml-toy-en-q8_0.bin").toString(),
                DATA.resolve("toy-en-samples/sample_05.wav").toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out().strip()).isEqualTo("We have 16 people signed up for the doctor's appointment.");
    }

    @Test
    void reportsTheDetectedLanguageAndTranslates() {
        String model = MODELS.resolve("toy-multi/ggml-toy-multi-q8_0.bin").toString();
        String wav = DATA.resolve("toy-multi-samples/sample_es_1.wav").toString();
        CliRun r = CliRun.of("transcribe", "--model", model, "--language", "auto", wav);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out().strip()).isEqualTo("Vale, voy a llamar a Carmen hoy a las 7 de la tarde.");
        assertThat(r.err()).contains("detected language: es");
        CliRun t = CliRun.of("transcribe", "--model", model, "--task", "translate", wav);
        assertThat(t.out().strip()).isEqualTo("OK, I will call Carmen today at 7 pm.");
    }

    @Test
    void jsonHasSegmentsTokensLanguageAndTimings() throws Exception {
        CliRun r = CliRun.of("transcribe", "--json", "--model", MODELS.resolve("toy-multi").toString(),
                DATA.resolve("toy-multi-samples/sample_de_2.wav").toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertThat(j.get("text").asText()).isEqualTo("Bitte schick morgen früh die Notizen an meinen Chef.");
        assertThat(j.get("language").asText()).isEqualTo("de");
        assertThat(j.get("language_probabilities").get("de").asDouble()).isGreaterThan(0.9);
        JsonNode seg = j.get("segments").get(0);
        assertThat(seg.get("tokens").size()).isGreaterThan(5);
        assertThat(seg.get("tokens").get(0).get("p").asDouble()).isBetween(0.0, 1.0);
        for (String k : new String[] {"load_ms", "mel_ms", "encode_ms", "decode_ms_per_token"}) {
            assertThat(j.get("timings").get(k).asDouble()).as(k).isPositive();
        }
    }

    @Test
    void timestampsPrintOneLinePerSegment() {
        CliRun r = CliRun.of("transcribe", "--timestamps", "--model", MODELS.resolve("toy-en").toString(),
                DATA.resolve("toy-en-samples/sample_01.wav").toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out().strip().split("\\R")).allMatch(l -> l.matches("\\[\\d\\d:\\d\\d\\.\\d{3} --> \\d\\d:\\d\\d\\.\\d{3}]  .+"));
    }

    @Test
    void benchPrintsJsonStatistics() throws Exception {
        CliRun r = CliRun.of("bench", "--json", "--runs", "1", "--tokens", "3", "--model",
                MODELS.resolve("toy-en/ggml-toy-en.bin").toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode j = new ObjectMapper().readTree(r.out());
        for (String k : new String[] {"encoder_ms", "decode_ms_per_token", "beam_ms_per_step",
            "beam_transcribe_ms_per_token"}) { // the last: issue 22 item 4's real beam-5 transcription
            assertThat(j.get(k).get("median").asDouble()).as(k).isPositive();
            assertThat(j.get(k).get("min").asDouble()).isLessThanOrEqualTo(j.get(k).get("max").asDouble());
        }
        assertThat(j.get("beams").asInt()).isEqualTo(5); // issue 12's beam-5 figure, by default
        JsonNode mem = j.get("memory_mib"); // issue 22: the budget by category
        for (String c : new String[] {"self_kv", "cross_kv", "encoder_scratch", "decoder_scratch", "shared_scratch"}) {
            assertThat(mem.get("by_category").get(c).get("peak").asDouble()).as(c).isPositive();
        }
        double sumOfPeaks = 0;
        for (JsonNode c : mem.get("by_category")) { // every category (a GPU's weights and staging too)
            assertThat(c.get("peak").asDouble()).isGreaterThanOrEqualTo(c.get("steady").asDouble());
            sumOfPeaks += c.get("peak").asDouble();
        }
        assertThat(mem.get("peak").asDouble()).isPositive().isLessThanOrEqualTo(sumOfPeaks + 1e-9)
                .isGreaterThanOrEqualTo(mem.get("steady").asDouble());
        CliRun greedyOnly = CliRun.of("bench", "--json", "--runs", "1", "--warmup", "0", "--tokens", "2", "--beams", "0",
                "--model", MODELS.resolve("toy-en/ggml-toy-en.bin").toString());
        assertThat(greedyOnly.exitCode()).as(greedyOnly.err()).isZero();
        assertThat(new ObjectMapper().readTree(greedyOnly.out()).has("beam_ms_per_step")).isFalse();
        assertThat(new ObjectMapper().readTree(greedyOnly.out()).has("beam_transcribe_ms_per_token")).isFalse();
    }

    @Test
    void audioCtxAutoGivesTheTranscriptAndEncodesFewerPositions() throws Exception {
        String model = MODELS.resolve("toy-en").toString();
        String wav = DATA.resolve("toy-en-samples/sample_03.wav").toString();
        CliRun r = CliRun.of("transcribe", "--audio-ctx", "auto", "--model", model, wav);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out().strip()).isEqualTo("We are out of cheese and tea.");
        for (String[] ctx : new String[][] {{"full", "1500"}, {"auto", "192"}, {"256", "256"}}) {
            CliRun b = CliRun.of("bench", "--json", "--runs", "1", "--warmup", "0", "--tokens", "2", "--audio-ctx",
                    ctx[0], "--seconds", "2", "--model", model);
            assertThat(b.exitCode()).as(b.err()).isZero();
            assertThat(new ObjectMapper().readTree(b.out()).get("encoder_positions").asInt()).as(ctx[0])
                    .isEqualTo(Integer.parseInt(ctx[1]));
        }
    }
}
