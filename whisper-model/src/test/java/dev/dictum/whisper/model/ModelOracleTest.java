package dev.dictum.whisper.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.whisper.decode.Logits;
import dev.dictum.whisper.format.detect.ModelFiles;
import dev.dictum.whisper.testutil.TestData;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The engine against the Hugging Face reference, stage by stage: encoder output from the oracle's
 * own log-mel (so a mel difference cannot hide an encoder one), then the raw logits of the first
 * three greedy steps, fed incrementally through the KV cache, and the language probabilities.
 */
class ModelOracleTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @ValueSource(strings = {"toy-en", "toy-en/ggml-toy-en.bin"})
    void englishEncoderAndLogitsMatchTheReference(String model) throws Exception {
        Path oracle = TestData.data("toy-en-oracle");
        JsonNode index = JSON.readTree(oracle.resolve("index.json").toFile());
        try (WhisperModel m = WhisperModel.load(ModelFiles.open(TestData.model(model)), new CpuBackend())) {
            for (String stem : new String[] {"sample_01", "sample_02"}) {
                JsonNode e = index.get(stem + ".wav");
                int[] ids = ints(e.get("greedy_token_ids"));
                checkWindow(m, oracle, stem, Arrays.copyOfRange(ids, 0, 2), Arrays.copyOfRange(ids, 2, 4), 51864);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"toy-multi", "toy-multi/ggml-toy-multi-q8_0.bin"})
    void multilingualLanguageProbabilitiesAndLogitsMatchTheReference(String model) throws Exception {
        Path oracle = TestData.data("toy-multi-oracle");
        JsonNode e = JSON.readTree(oracle.resolve("index.json").toFile()).get("sample_de_1.wav");
        boolean quantized = model.endsWith("q8_0.bin");
        try (WhisperModel m = WhisperModel.load(ModelFiles.open(TestData.model(model)), new CpuBackend())) {
            float[] mel = TestData.f32(oracle.resolve("sample_de_1.logmel.f32.bin"));
            try (EncodedAudio audio = m.encode(mel); DecoderState dec = m.newDecoder(1)) {
                float[] enc = audio.toHost();
                double encErr = TestData.relativeError(enc, TestData.f32(oracle.resolve("sample_de_1.encoder_out.f32.bin")));
                System.out.printf("%s encoder rel err %.3g%n", model, encErr);
                assertThat(encErr).isLessThan(quantized ? 0.05 : 1e-4);

                dec.reset(audio, 1);
                float[][] logits = new float[1][51866];
                dec.feed(new int[][] {{50258}}, logits);
                float[] lang = softmax(Arrays.copyOfRange(logits[0], 50259, 50359));
                float[] refLang = TestData.f32(oracle.resolve("sample_de_1.lang_probs.f32.bin"));
                double langErr = TestData.relativeError(lang, refLang);
                System.out.printf("%s language probs rel err %.3g%n", model, langErr);
                assertThat(argmax(lang)).isEqualTo(2); // de
                assertThat(langErr).isLessThan(quantized ? 0.01 : 1e-4);
            }
            int[] ids = ints(e.get("transcribe").get("greedy_token_ids"));
            if (!quantized) {
                checkWindow(m, oracle, "sample_de_1", Arrays.copyOfRange(ids, 0, 4), Arrays.copyOfRange(ids, 4, 6), 51866);
            }
        }
    }

    private static void checkWindow(WhisperModel m, Path oracle, String stem, int[] prompt, int[] next, int vocab)
            throws Exception {
        float[] mel = TestData.f32(oracle.resolve(stem + ".logmel.f32.bin"));
        float[] refEnc = TestData.f32(oracle.resolve(stem + ".encoder_out.f32.bin"));
        float[] refLogits = TestData.f32(oracle.resolve(stem + ".logits3.f32.bin"));
        try (EncodedAudio audio = m.encode(mel); DecoderState dec = m.newDecoder(1)) {
            double encErr = TestData.relativeError(audio.toHost(), refEnc);
            System.out.printf("%s encoder rel err %.3g%n", stem, encErr);
            assertThat(encErr).isLessThan(1e-4);
            dec.reset(audio, 1);
            float[][] logits = new float[1][vocab];
            Arrays.fill(logits[0], Float.NaN);
            dec.feed(new int[][] {prompt}, logits);
            for (int step = 0; step < 3; step++) {
                double err = TestData.relativeError(logits[0], 0, refLogits, step * vocab, vocab);
                System.out.printf("%s logits step %d rel err %.3g%n", stem, step, err);
                assertThat(err).isLessThan(1e-4);
                if (step < 2) {
                    Arrays.fill(logits[0], Float.NaN);
                    dec.feed(new int[][] {{next[step]}}, logits);
                }
            }
        }
    }

    /** Greedy decoding (the CLI's default path, through DecodingTask) gives the oracle's exact token ids. */
    @ParameterizedTest
    @ValueSource(strings = {"toy-en", "toy-en/ggml-toy-en.bin", "toy-multi", "toy-multi/ggml-toy-multi-q8_0.bin"})
    void greedyTokenIdsAreTheOracles(String model) throws Exception {
        boolean multi = model.startsWith("toy-multi");
        Path oracle = TestData.data(multi ? "toy-multi-oracle" : "toy-en-oracle");
        JsonNode index = JSON.readTree(oracle.resolve("index.json").toFile());
        try (dev.dictum.whisper.session.WhisperEngine e = dev.dictum.whisper.session.WhisperEngine.load(
                TestData.model(model), new CpuBackend())) {
            for (var it = index.fieldNames(); it.hasNext();) {
                String wav = it.next();
                String stem = wav.replace(".wav", "");
                float[] mel = TestData.f32(oracle.resolve(stem + ".logmel.f32.bin"));
                for (String task : multi ? new String[] {"transcribe", "translate"} : new String[] {"transcribe"}) {
                    JsonNode entry = multi ? index.get(wav).get(task) : index.get(wav);
                    int[] want = ints(entry.get("greedy_token_ids"));
                    var options = dev.dictum.whisper.decode.DecodingOptions.defaults().withWithoutTimestamps(true)
                            .withLanguage(multi ? index.get(wav).get("language").asText() : "en")
                            .withTask(task.equals("translate") ? dev.dictum.whisper.decode.Task.TRANSLATE
                                    : dev.dictum.whisper.decode.Task.TRANSCRIBE);
                    try (EncodedAudio audio = e.model().encode(mel); DecoderState dec = e.model().newDecoder(1)) {
                        var r = new dev.dictum.whisper.decode.DecodingTask(e.model(), e.codec(), options)
                                .run(audio, dec, new java.util.SplittableRandom(0));
                        int promptLength = multi ? 4 : 2;
                        int[] got = r.tokens();
                        // The oracle lists prompt + sampled tokens + eot; DecodingTask returns the sampled text.
                        assertThat(got).as("%s %s %s", model, wav, task)
                                .isEqualTo(Arrays.copyOfRange(want, promptLength, want.length - 1));
                    }
                }
            }
        }
    }

    @Test
    void reorderKeepsEachSequencesCache() throws Exception {
        try (WhisperModel m = WhisperModel.load(ModelFiles.open(TestData.model("toy-en")), new CpuBackend())) {
            float[] mel = TestData.f32(TestData.data("toy-en-oracle", "sample_01.logmel.f32.bin"));
            try (EncodedAudio audio = m.encode(mel); DecoderState dec = m.newDecoder(3)) {
                // Two different sequences, then swapped and duplicated: each continuation must give
                // the logits that a fresh decoder gives for the same full sequence.
                dec.reset(audio, 2);
                float[][] l2 = new float[2][51864];
                dec.feed(new int[][] {{50257, 50362, 5740}, {50257, 50362, 14026}}, l2);
                dec.reorder(new int[] {1, 0, 1});
                float[][] l3 = new float[3][51864];
                dec.feed(new int[][] {{284}, {284}, {2940}}, l3);
                try (DecoderState fresh = m.newDecoder(1)) {
                    float[][] ref = new float[1][51864];
                    fresh.reset(audio, 1);
                    fresh.feed(new int[][] {{50257, 50362, 14026, 284}}, ref);
                    assertThat(TestData.relativeError(l3[0], ref[0])).isLessThan(1e-5);
                    fresh.reset(audio, 1);
                    fresh.feed(new int[][] {{50257, 50362, 5740, 284}}, ref);
                    assertThat(TestData.relativeError(l3[1], ref[0])).isLessThan(1e-5);
                    fresh.reset(audio, 1);
                    fresh.feed(new int[][] {{50257, 50362, 14026, 2940}}, ref);
                    assertThat(TestData.relativeError(l3[2], ref[0])).isLessThan(1e-5);
                }
            }
        }
    }

    private static int[] ints(JsonNode a) {
        int[] r = new int[a.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = a.get(i).asInt();
        }
        return r;
    }

    private static float[] softmax(float[] x) {
        double max = Double.NEGATIVE_INFINITY;
        for (float v : x) {
            max = Math.max(max, v);
        }
        double sum = 0;
        double[] e = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            e[i] = Math.exp(x[i] - max);
            sum += e[i];
        }
        float[] p = new float[x.length];
        for (int i = 0; i < x.length; i++) {
            p[i] = (float) (e[i] / sum);
        }
        return p;
    }

    /** The greedy pick (the decoder's own argmax: the forward pass is under test here, not the pick). */
    static int argmax(float[] x) {
        return Logits.argmax(x);
    }
}
