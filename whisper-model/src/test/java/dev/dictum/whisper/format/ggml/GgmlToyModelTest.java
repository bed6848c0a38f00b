package dev.dictum.whisper.format.ggml;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dictum.gpu.DType;
import dev.dictum.gpu.HostTensor;
import dev.dictum.whisper.format.WhisperTensorLayout;
import dev.dictum.whisper.format.hf.SafetensorsFile;
import dev.dictum.whisper.testutil.HostTensorValues;
import dev.dictum.whisper.testutil.ToyVocabularies;
import dev.dictum.whisper.tokenizer.SpecialTokens;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/** The committed toy models: the ggml files hold exactly the Hugging Face weights, and their vocabularies and defaults are right. */
class GgmlToyModelTest {
    private static final Path TOY_EN = ToyVocabularies.testdata().resolve("models/toy-en");
    private static final Path TOY_MULTI = ToyVocabularies.testdata().resolve("models/toy-multi");

    @Test
    void toyEnF16HoldsTheSafetensorsWeightsBitForBit() {
        try (GgmlModelFile ggml = GgmlModelFile.open(TOY_EN.resolve("ggml-toy-en.bin"));
                Arena arena = Arena.ofConfined()) {
            SafetensorsFile hf = SafetensorsFile.open(TOY_EN.resolve("model.safetensors"), arena);
            assertThat(hf.names()).hasSize(167);
            assertThat(ggml.names()).hasSize(167);
            for (String hfName : hf.names()) {
                HostTensor want = hf.tensor(hfName);
                assertThat(want.dtype()).isEqualTo(DType.F16);
                HostTensor got = ggml.tensor(canonical(hfName), want.shape());
                if (got.dtype() == DType.F16) {
                    assertThat(got.data().toArray(ValueLayout.JAVA_BYTE)).as(hfName)
                            .isEqualTo(want.data().toArray(ValueLayout.JAVA_BYTE));
                } else {
                    // 1-D tensors, conv biases and positional embeddings are f32 in ggml: widened exactly.
                    assertThat(got.dtype()).as(hfName).isEqualTo(DType.F32);
                    assertSameFloats(hfName, HostTensorValues.of(got), HostTensorValues.of(want));
                }
            }
        }
    }

    @Test
    void toyEnQ8_0IsTheF16ModelWithinQuantisationError() {
        try (GgmlModelFile f16 = GgmlModelFile.open(TOY_EN.resolve("ggml-toy-en.bin"));
                GgmlModelFile q8 = GgmlModelFile.open(TOY_EN.resolve("ggml-toy-en-q8_0.bin"))) {
            assertThat(q8.ftype()).isEqualTo(2007);
            assertThat(q8.names()).containsExactlyElementsOf(f16.names());
            int quantized = 0;
            Map<String, long[]> shapes = WhisperTensorLayout.shapes(f16.dims());
            for (String name : f16.names()) {
                HostTensor ref = f16.tensor(name, shapes.get(name));
                HostTensor q = q8.tensor(name, ref.shape());
                float[] want = HostTensorValues.of(ref);
                float[] got = HostTensorValues.of(q);
                if (q.dtype() != DType.Q8_0) {
                    assertSameFloats(name, got, want);
                    continue;
                }
                quantized++;
                for (int b = 0; b < want.length; b += 32) {
                    float amax = 0;
                    for (int j = 0; j < 32; j++) {
                        amax = Math.max(amax, Math.abs(want[b + j]));
                    }
                    // Half a step of d = amax/127, plus d's own f16 rounding times |q| <= 127.
                    float tolerance = 0.6f * amax / 127 + 1e-7f;
                    for (int j = 0; j < 32; j++) {
                        if (Math.abs(got[b + j] - want[b + j]) > tolerance) {
                            assertThat(got[b + j]).as(name + "[" + (b + j) + "]").isCloseTo(want[b + j],
                                    org.assertj.core.data.Offset.offset(tolerance));
                        }
                    }
                }
            }
            assertThat(quantized).isEqualTo(4 * 6 + 4 * 10 + 1); // linears of the blocks + token embedding
        }
    }

    @Test
    void toyEnVocabularyAndDefaultsAreOpenAis() throws IOException {
        try (GgmlModelFile f = GgmlModelFile.open(TOY_EN.resolve("ggml-toy-en.bin"))) {
            assertThat(f.dims().nVocab()).isEqualTo(51864);
            assertThat(f.vocabulary().textTokenCount()).isEqualTo(50256);
            assertThat(f.vocabulary().specials().noTimestamps()).isEqualTo(50362);
            assertThat(f.melFilters().nMel()).isEqualTo(80);
            assertThat(f.melFilters().nFft()).isEqualTo(201);
            JsonNode gen = new ObjectMapper().readTree(TOY_EN.resolve("generation_config.json").toFile());
            assertThat(f.generation().suppressTokens()).containsExactly(ints(gen.get("suppress_tokens")));
            assertThat(f.generation().beginSuppressTokens()).containsExactly(220, 50256);
            assertThat(f.generation().maxInitialTimestampIndex()).isEqualTo(50);
        }
    }

    @Test
    void toyMultiIsLargeV3Shaped() throws IOException {
        try (GgmlModelFile f = GgmlModelFile.open(TOY_MULTI.resolve("ggml-toy-multi-q8_0.bin"))) {
            assertThat(f.dims().nMels()).isEqualTo(128);
            assertThat(f.dims().nVocab()).isEqualTo(51866);
            SpecialTokens s = f.vocabulary().specials();
            assertThat(s.eot()).isEqualTo(50257);
            assertThat(s.sot()).isEqualTo(50258);
            assertThat(s.translate()).isEqualTo(50359);
            assertThat(s.noSpeech()).isEqualTo(50363);
            assertThat(s.noTimestamps()).isEqualTo(50364);
            assertThat(f.vocabulary().languageCodes()).hasSize(100).endsWith("yue");
            assertThat(f.vocabulary().languageToken("fr")).isEqualTo(50265);
            assertThat(f.vocabulary().bytes(50256)).isEmpty();
            assertThat(f.melFilters().nMel()).isEqualTo(128);
            assertThat(f.tensor("encoder.conv1.weight", 256, 128, 3).dtype()).isEqualTo(DType.F16);
            assertThat(f.tensor("encoder.conv1.bias", 256).dtype()).isEqualTo(DType.F32);
            assertThat(f.tensor("decoder.token_embedding.weight", 51866, 256).dtype()).isEqualTo(DType.Q8_0);
            JsonNode gen = new ObjectMapper().readTree(TOY_MULTI.resolve("generation_config.json").toFile());
            assertThat(f.generation().suppressTokens()).containsExactly(ints(gen.get("suppress_tokens")));
            assertThat(f.generation().beginSuppressTokens()).containsExactly(220, 50257);
        }
    }

    /** Bit-exact equality; AssertJ's containsExactly is quadratic on arrays this long. */
    private static void assertSameFloats(String name, float[] got, float[] want) {
        int at = java.util.Arrays.mismatch(got, want);
        if (at >= 0) {
            assertThat(at < got.length && at < want.length ? got[at] : Float.NaN).as(name + "[" + at + "] of "
                    + got.length + " / " + want.length).isEqualTo(at < want.length ? want[at] : Float.NaN);
        }
    }

    private static int[] ints(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false).mapToInt(JsonNode::intValue).sorted().toArray();
    }

    private static final Pattern LAYER = Pattern.compile("model\\.(encoder|decoder)\\.layers\\.(\\d+)\\.(.+)\\.(weight|bias)");
    private static final Map<String, String> PARTS = Map.ofEntries(Map.entry("self_attn.q_proj", "attn.query"),
            Map.entry("self_attn.k_proj", "attn.key"), Map.entry("self_attn.v_proj", "attn.value"),
            Map.entry("self_attn.out_proj", "attn.out"), Map.entry("self_attn_layer_norm", "attn_ln"),
            Map.entry("encoder_attn.q_proj", "cross_attn.query"), Map.entry("encoder_attn.k_proj", "cross_attn.key"),
            Map.entry("encoder_attn.v_proj", "cross_attn.value"), Map.entry("encoder_attn.out_proj", "cross_attn.out"),
            Map.entry("encoder_attn_layer_norm", "cross_attn_ln"), Map.entry("fc1", "mlp.0"), Map.entry("fc2", "mlp.2"),
            Map.entry("final_layer_norm", "mlp_ln"));
    private static final Map<String, String> TOP = Map.of("model.encoder.conv1.weight", "encoder.conv1.weight",
            "model.encoder.conv1.bias", "encoder.conv1.bias", "model.encoder.conv2.weight", "encoder.conv2.weight",
            "model.encoder.conv2.bias", "encoder.conv2.bias", "model.encoder.embed_positions.weight",
            "encoder.positional_embedding", "model.encoder.layer_norm.weight", "encoder.ln_post.weight",
            "model.encoder.layer_norm.bias", "encoder.ln_post.bias", "model.decoder.embed_tokens.weight",
            "decoder.token_embedding.weight", "model.decoder.embed_positions.weight", "decoder.positional_embedding",
            "model.decoder.layer_norm.weight", "decoder.ln.weight");

    /** Hugging Face names to OpenAI's, as shared/tools/hf_to_ggml.py maps them. */
    static String canonical(String hf) {
        if (hf.equals("model.decoder.layer_norm.bias")) {
            return "decoder.ln.bias";
        }
        Matcher m = LAYER.matcher(hf);
        if (m.matches()) {
            return m.group(1) + ".blocks." + m.group(2) + "." + PARTS.get(m.group(3)) + "." + m.group(4);
        }
        return TOP.get(hf);
    }
}
