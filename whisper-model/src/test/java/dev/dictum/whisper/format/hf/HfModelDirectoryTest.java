package dev.dictum.whisper.format.hf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dictum.gpu.DType;
import dev.dictum.gpu.HostTensor;
import dev.dictum.whisper.format.GenerationConfig;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.testutil.RandomWhisper;
import dev.dictum.whisper.tokenizer.SpecialTokens;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HfModelDirectoryTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void opensToyEnglish() {
        try (HfModelDirectory m = HfModelDirectory.open(ToyModels.english())) {
            assertThat(m.dims()).isEqualTo(new WhisperDims(80, 1500, 256, 4, 4, 51864, 448, 256, 4, 4));
            SpecialTokens s = m.vocabulary().specials();
            assertThat(s).isEqualTo(SpecialTokens.forVocabSize(51864));
            assertThat(s.eot()).isEqualTo(50256);
            assertThat(s.sot()).isEqualTo(50257);
            assertThat(s.translate()).isEqualTo(50357);
            assertThat(s.noSpeech()).isEqualTo(50361);
            assertThat(s.noTimestamps()).isEqualTo(50362);
            assertThat(s.timestampBegin()).isEqualTo(50363);
            assertThat(m.vocabulary().textTokenCount()).isEqualTo(50256);
            assertThat(m.vocabulary().languageCodes()).hasSize(99).startsWith("en", "zh", "de").endsWith("su");
            assertThat(m.vocabulary().languageToken("en")).isEqualTo(50258);
            assertThat(m.tokenizer().decode(new int[] {5740, 284, 2116})).isEqualTo(" Note to self");
            allCanonicalTensorsPresent(m);
        }
    }

    @Test
    void opensToyMultilingualInTheLargeV3Layout() {
        try (HfModelDirectory m = HfModelDirectory.open(ToyModels.multilingual())) {
            assertThat(m.dims()).isEqualTo(new WhisperDims(128, 1500, 256, 4, 4, 51866, 448, 256, 4, 4));
            SpecialTokens s = m.vocabulary().specials();
            assertThat(s.eot()).isEqualTo(50257);
            assertThat(s.sot()).isEqualTo(50258);
            assertThat(s.firstLanguage()).isEqualTo(50259);
            assertThat(s.languageCount()).isEqualTo(100);
            assertThat(s.translate()).isEqualTo(50359);
            assertThat(s.transcribe()).isEqualTo(50360);
            assertThat(s.startOfPrev()).isEqualTo(50362);
            assertThat(s.noSpeech()).isEqualTo(50363);
            assertThat(s.noTimestamps()).isEqualTo(50364);
            assertThat(s.timestampBegin()).isEqualTo(50365);
            assertThat(m.vocabulary().languageToken("de")).isEqualTo(50261);
            assertThat(m.vocabulary().languageToken("fr")).isEqualTo(50265);
            assertThat(m.vocabulary().languageToken("yue")).isEqualTo(50358);
            assertThat(m.vocabulary().bytes(50256)).isEmpty();
            allCanonicalTensorsPresent(m);
        }
    }

    private static void allCanonicalTensorsPresent(HfModelDirectory m) {
        Map<String, long[]> expected = RandomWhisper.shapes(m.dims());
        assertThat(m.names()).containsExactlyInAnyOrderElementsOf(expected.keySet());
        expected.forEach((name, shape) -> {
            HostTensor t = m.tensor(name, shape);
            assertThat(t.name()).isEqualTo(name);
            assertThat(t.dtype()).isEqualTo(DType.F16);
            assertThat(t.shape()).isEqualTo(shape);
        });
    }

    @Test
    void generationConfigComesFromTheFile() throws IOException {
        for (Path dir : new Path[] {ToyModels.english(), ToyModels.multilingual()}) {
            JsonNode g = JSON.readTree(dir.resolve("generation_config.json").toFile());
            try (HfModelDirectory m = HfModelDirectory.open(dir)) {
                GenerationConfig gc = m.generation();
                assertThat(gc.suppressTokens()).containsExactly(ints(g.get("suppress_tokens")));
                assertThat(gc.beginSuppressTokens()).containsExactly(ints(g.get("begin_suppress_tokens")));
                assertThat(gc.maxInitialTimestampIndex()).isEqualTo(50);
            }
        }
    }

    @Test
    void vocabularyMatchesOpenAisRankFile() throws IOException {
        try (HfModelDirectory m = HfModelDirectory.open(ToyModels.multilingual())) {
            var lines = java.nio.file.Files.readAllLines(
                    ToyModels.testdata().resolve("data/whisper-assets/multilingual.tiktoken"));
            assertThat(lines).hasSize(m.vocabulary().textTokenCount());
            for (int id = 0; id < lines.size(); id++) {
                byte[] want = java.util.Base64.getDecoder().decode(lines.get(id).split(" ")[0].replace("=", ""));
                assertThat(m.vocabulary().bytes(id)).as("token %d", id).isEqualTo(want);
            }
        }
    }

    @Test
    void tensorValuesAreTheFileBytes() throws IOException {
        Path file = ToyModels.english().resolve("model.safetensors");
        JsonNode header;
        long dataStart;
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            byte[] len = new byte[8];
            raf.readFully(len);
            long n = ByteBuffer.wrap(len).order(ByteOrder.LITTLE_ENDIAN).getLong();
            byte[] json = new byte[(int) n];
            raf.readFully(json);
            header = JSON.readTree(json);
            dataStart = 8 + n;
            try (HfModelDirectory m = HfModelDirectory.open(ToyModels.english())) {
                spotCheck(m, raf, header, dataStart, "model.encoder.conv1.weight", "encoder.conv1.weight",
                        new long[] {256, 80, 3});
                spotCheck(m, raf, header, dataStart, "model.decoder.layers.3.encoder_attn.v_proj.bias",
                        "decoder.blocks.3.cross_attn.value.bias", new long[] {256});
                spotCheck(m, raf, header, dataStart, "model.decoder.embed_tokens.weight",
                        "decoder.token_embedding.weight", new long[] {51864, 256});
                spotCheck(m, raf, header, dataStart, "model.encoder.layer_norm.weight", "encoder.ln_post.weight",
                        new long[] {256});
            }
        }
    }

    private static void spotCheck(HfModelDirectory m, RandomAccessFile raf, JsonNode header, long dataStart,
            String hfName, String canonical, long[] shape) throws IOException {
        long begin = header.get(hfName).get("data_offsets").get(0).longValue();
        long end = header.get(hfName).get("data_offsets").get(1).longValue();
        HostTensor t = m.tensor(canonical, shape);
        assertThat(t.data().byteSize()).isEqualTo(end - begin);
        long count = (end - begin) / 2;
        for (long i : new long[] {0, 1, count / 2, count - 1}) {
            raf.seek(dataStart + begin + 2 * i);
            short want = Short.reverseBytes(raf.readShort());
            short got = t.data().get(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 2 * i);
            assertThat(got).as("%s[%d]", canonical, i).isEqualTo(want);
        }
    }

    @Test
    void wrongShapeAndMissingTensorAreReported() {
        try (HfModelDirectory m = HfModelDirectory.open(ToyModels.english())) {
            assertThatThrownBy(() -> m.tensor("encoder.conv1.weight", 384, 80, 3))
                    .isInstanceOf(dev.dictum.whisper.format.ModelFormatException.class)
                    .hasMessageEndingWith("tensor encoder.conv1.weight (model.encoder.conv1.weight) has shape "
                            + "[256, 80, 3], expected [384, 80, 3]")
                    .hasMessageContaining("model.safetensors");
            assertThatThrownBy(() -> m.tensor("decoder.blocks.9.attn.query.weight", 256, 256))
                    .isInstanceOf(dev.dictum.whisper.format.ModelFormatException.class)
                    .hasMessageEndingWith("missing tensor decoder.blocks.9.attn.query.weight");
        }
    }

    @Test
    void tensorsAreRefusedAfterClose() {
        HfModelDirectory m = HfModelDirectory.open(ToyModels.english());
        HostTensor t = m.tensor("decoder.ln.weight", 256);
        m.close();
        m.close(); // idempotent
        assertThatThrownBy(() -> m.tensor("decoder.ln.weight", 256)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> t.data().get(ValueLayout.JAVA_BYTE, 0)).isInstanceOf(IllegalStateException.class);
    }

    private static int[] ints(JsonNode a) {
        int[] out = new int[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = a.get(i).intValue();
        }
        return out;
    }
}
