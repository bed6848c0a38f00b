package dev.dictum.whisper.format.hf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dictum.gpu.DType;
import dev.dictum.whisper.format.ModelFormatException;
import dev.dictum.whisper.testutil.SafetensorsWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every broken directory gives a one-line ModelFormatException that names the file at fault. */
class HfModelDirectoryErrorsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;
    Path dir;

    @BeforeEach
    void writeSmallModel() {
        dir = SafetensorsWriter.writeModel(tmp.resolve("m"), HfRoundTripTest.SMALL, 1, DType.F16);
    }

    private AbstractThrowableAssert<?, ? extends Throwable> openFails() {
        return assertThatThrownBy(() -> HfModelDirectory.open(dir).close()).isInstanceOf(ModelFormatException.class)
                .hasMessageNotContaining("\n");
    }

    private void editJson(String file, Consumer<ObjectNode> edit) throws IOException {
        ObjectNode n = (ObjectNode) JSON.readTree(dir.resolve(file).toFile());
        edit.accept(n);
        JSON.writeValue(dir.resolve(file).toFile(), n);
    }

    @Test
    void theUneditedModelOpens() {
        HfModelDirectory.open(dir).close();
    }

    @Test
    void missingDirectoryAndFiles() throws IOException {
        Path absent = tmp.resolve("absent");
        assertThatThrownBy(() -> HfModelDirectory.open(absent)).isInstanceOf(ModelFormatException.class)
                .hasMessage(absent + ": no such model directory");
        Files.delete(dir.resolve("model.safetensors"));
        openFails().hasMessage(dir.resolve("model.safetensors") + ": no such file");
        Files.delete(dir.resolve("config.json"));
        openFails().hasMessage(dir.resolve("config.json") + ": no such file");
    }

    @Test
    void corruptConfigJson() throws IOException {
        Files.writeString(dir.resolve("config.json"), "{\"d_model\": 32,\n \"num_mel_bins\": ");
        openFails().hasMessageStartingWith(dir.resolve("config.json") + ": not valid JSON");
    }

    @Test
    void impossibleVocabSize() throws IOException {
        editJson("config.json", c -> c.put("vocab_size", 12));
        openFails().hasMessageStartingWith(dir.resolve("config.json") + ": not a Whisper model")
                .hasMessageContaining("12");
    }

    @Test
    void missingConfigField() throws IOException {
        editJson("config.json", c -> c.remove("encoder_layers"));
        openFails().hasMessage(dir.resolve("config.json") + ": missing field encoder_layers");
    }

    @Test
    void truncatedWeights() throws IOException {
        Path f = dir.resolve("model.safetensors");
        byte[] all = Files.readAllBytes(f);
        Files.write(f, Arrays.copyOf(all, all.length / 2));
        openFails().hasMessageStartingWith(f + ": tensor ").hasMessageContaining("beyond the end of the data");
    }

    @Test
    void missingTensor() throws IOException {
        // Rename one tensor in place (same length, so every offset stays valid).
        Path f = dir.resolve("model.safetensors");
        String bytes = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
        Files.write(f, bytes.replace("model.decoder.layer_norm.bias", "model.decoder.layer_norm.bXas")
                .getBytes(StandardCharsets.ISO_8859_1));
        try (HfModelDirectory m = HfModelDirectory.open(dir)) {
            assertThatThrownBy(() -> m.tensor("decoder.ln.bias", 32)).isInstanceOf(ModelFormatException.class)
                    .hasMessage(dir + ": missing tensor decoder.ln.bias");
        }
    }

    @Test
    void configAndWeightsDisagreeOnAShape() throws IOException {
        editJson("config.json", c -> c.put("max_target_positions", 16));
        try (HfModelDirectory m = HfModelDirectory.open(dir)) {
            assertThatThrownBy(() -> m.tensor("decoder.positional_embedding", 16, 32))
                    .isInstanceOf(ModelFormatException.class)
                    .hasMessage(dir.resolve("model.safetensors") + ": tensor decoder.positional_embedding "
                            + "(model.decoder.embed_positions.weight) has shape [8, 32], expected [16, 32]");
        }
    }

    @Test
    void specialTokenIdsThatDisagreeWithTheVocabularySize() throws IOException {
        editJson("generation_config.json", g -> g.put("no_timestamps_token_id", 50363));
        openFails().hasMessageStartingWith(dir.resolve("generation_config.json").toString())
                .hasMessageContaining("50363").hasMessageContaining("50362");

        writeSmallModel();
        editJson("config.json", c -> c.put("decoder_start_token_id", 50258));
        openFails().hasMessageContaining("decoder_start_token_id has id 50258, but vocab_size 51864 implies 50257");

        writeSmallModel();
        editJson("added_tokens.json", a -> a.put("<|notimestamps|>", 50999));
        openFails().hasMessageStartingWith(dir.resolve("added_tokens.json").toString())
                .hasMessageContaining("<|notimestamps|> has id 50999, but vocab_size 51864 implies 50362");
    }

    @Test
    void multilingualTokenizerWithAnEnglishConfig() throws IOException {
        // toy-multi's tokenizer files next to a config that says 51864 tokens.
        Path multi = SafetensorsWriter.toyModel(51866);
        for (String f : new String[] {"vocab.json", "added_tokens.json"}) {
            Files.copy(multi.resolve(f), dir.resolve(f), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        openFails().hasMessageContaining("vocab_size 51864");
    }

    @Test
    void vocabularyWithAHole() throws IOException {
        editJson("vocab.json", v -> v.remove("ĠNote"));
        openFails().hasMessageStartingWith(dir.resolve("vocab.json").toString()).hasMessageContaining("id 5740");
    }

    @Test
    void vocabularyWithADuplicateId() throws IOException {
        editJson("vocab.json", v -> v.put("ĠNote", 284));
        openFails().hasMessageContaining("id 284 is used by two tokens");
    }

    @Test
    void tokenizerJsonServesWhenTheSmallFilesAreAbsent() throws IOException {
        byte[] note;
        try (HfModelDirectory m = HfModelDirectory.open(dir)) {
            note = m.vocabulary().bytes(5740);
        }
        Files.delete(dir.resolve("vocab.json"));
        Files.delete(dir.resolve("added_tokens.json"));
        try (HfModelDirectory m = HfModelDirectory.open(dir)) {
            assertThat(m.vocabulary().bytes(5740)).isEqualTo(note);
            assertThat(m.vocabulary().languageCodes()).hasSize(99);
        }
        Files.delete(dir.resolve("tokenizer.json"));
        openFails().hasMessageContaining("no vocab.json and no tokenizer.json");
    }

    @Test
    void withoutGenerationConfigTheDefaultsAreOpenAis() throws IOException {
        int[] suppress;
        int[] begin;
        try (HfModelDirectory m = HfModelDirectory.open(dir)) {
            suppress = m.generation().suppressTokens();
            begin = m.generation().beginSuppressTokens();
        }
        Files.delete(dir.resolve("generation_config.json"));
        try (HfModelDirectory m = HfModelDirectory.open(dir)) {
            assertThat(m.generation().suppressTokens()).containsExactly(suppress).hasSize(90);
            assertThat(m.generation().beginSuppressTokens()).containsExactly(begin);
            assertThat(m.generation().maxInitialTimestampIndex()).isEqualTo(50);
        }
    }

    @Test
    void outputProjectionIsIgnoredWhenTiedAndRefusedOtherwise() throws IOException {
        Map<String, long[]> shapes = new LinkedHashMap<>();
        try (HfModelDirectory m = HfModelDirectory.open(dir)) {
            m.names().forEach(n -> shapes.put(SafetensorsWriter.hfName(n), m.tensor(n,
                    dev.dictum.whisper.testutil.RandomWhisper.shapes(m.dims()).get(n)).shape()));
        }
        shapes.put("proj_out.weight", new long[] {51864, 32});
        rewriteWeights(shapes);
        try (HfModelDirectory m = HfModelDirectory.open(dir)) {
            assertThat(m.names()).doesNotContain("proj_out.weight").hasSize(shapes.size() - 1);
        }
        shapes.put("proj_out.weight", new long[] {51865, 32});
        rewriteWeights(shapes);
        openFails().hasMessageContaining("untied output projection");
    }

    @Test
    void shardIndexPointingOutsideTheDirectory() throws IOException {
        Files.delete(dir.resolve("model.safetensors"));
        Files.writeString(dir.resolve("model.safetensors.index.json"),
                "{\"weight_map\": {\"model.decoder.layer_norm.bias\": \"../elsewhere.safetensors\"}}");
        openFails().hasMessageContaining("not a file name in the directory");
    }

    private void rewriteWeights(Map<String, long[]> shapes) throws IOException {
        SafetensorsWriter.writeFile(dir.resolve("model.safetensors"), shapes,
                n -> new float[(int) Arrays.stream(shapes.get(n)).reduce(1, (a, b) -> a * b)], DType.F16);
    }
}
