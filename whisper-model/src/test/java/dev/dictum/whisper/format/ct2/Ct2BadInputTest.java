package dev.dictum.whisper.format.ct2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dictum.whisper.format.ModelFormatException;
import dev.dictum.whisper.testutil.Ct2Writer;
import dev.dictum.whisper.testutil.TinyWhisper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Broken CTranslate2 directories fail with a one-line ModelFormatException naming the file at fault. */
class Ct2BadInputTest {
    @TempDir
    static Path root;

    private static Ct2Writer.Written good;
    private static byte[] modelBin;
    private static int copies;

    @BeforeAll
    static void writeGoodModel() throws IOException {
        good = Ct2Writer.write(root.resolve("good"), TinyWhisper.EN, 9, Ct2Writer.Type.FLOAT16);
        modelBin = Files.readAllBytes(good.modelBin());
        Ct2ModelDirectory.open(good.dir()).close();
    }

    @Test
    void missingFiles() throws IOException {
        assertRejected(root.resolve("absent"), "absent", "not a directory");
        assertRejected(copy(d -> delete(d.resolve("model.bin"))), "model.bin", "no such file");
        Path noVocabulary = copy(d -> delete(d.resolve("vocabulary.json")));
        assertRejected(noVocabulary, "", "no vocabulary (vocabulary.json, vocabulary.txt or tokenizer.json)");
    }

    @Test
    void badVersionSpecAndDtype() {
        assertRejected(withBin(patchInt(modelBin, 0, 99)), "model.bin", "binary version 99 is not");
        assertRejected(withBin(patchInt(modelBin, 0, 0)), "model.bin", "binary version 0 is not");
        byte[] spec = modelBin.clone();
        spec[4 + 2 + "WhisperSpe".length()] = (byte) 'X';
        assertRejected(withBin(spec), "model.bin", "'WhisperSpeX' model, not Whisper");
        assertRejected(withBin(patchInt(modelBin, 4 + 2 + 12, 4)), "model.bin", "WhisperSpec revision 4 is newer");
        int type = dtypeOffset("decoder/embeddings/weight", 2);
        assertRejected(withBin(patchByte(modelBin, type, 9)), "model.bin", "unknown dtype id 9");
        assertRejected(withBin(patchByte(modelBin, type, 2)), "model.bin",
                "decoder/embeddings/weight is int16 (CTranslate2's int16 quantization), which Dictum does not read");
        assertRejected(withBin(patchByte(modelBin, type, 0)), "model.bin",
                "variable 'decoder/embeddings/weight' is float32[51864, 32] but has 3319296 bytes");
    }

    @Test
    void truncatedVariables() {
        long at = good.variableOffsets().get("decoder/embeddings/weight");
        assertRejected(withBin(Arrays.copyOf(modelBin, (int) at + 10)), "model.bin",
                "truncated in the header of variable");
        assertRejected(withBin(Arrays.copyOf(modelBin, (int) at + 100)), "model.bin",
                "truncated in the data of variable 'decoder/embeddings/weight'");
        assertRejected(withBin(Arrays.copyOf(modelBin, 3)), "model.bin", "truncated in the binary version");
        assertRejected(withBin(Arrays.copyOf(modelBin, modelBin.length - 3)), "model.bin", "truncated in alias #0");
    }

    @Test
    void missingOrMisshapenVariables() {
        byte[] renamed = modelBin.clone();
        int name = (int) (long) good.variableOffsets().get("encoder/layer_0/ffn/linear_1/bias") + 2;
        renamed[name + "encoder/layer_0/ffn/linear_1/".length()] = 'c'; // bias -> cias
        assertRejected(withBin(renamed), "model.bin", "missing variable encoder/layer_0/ffn/linear_1/bias");
        int dim = dtypeOffset("decoder/position_encodings/encodings", 2) - 8;
        assertRejected(withBin(patchInt(modelBin, dim, 4)), "model.bin", "is float16[4, 32] but has 512 bytes");
        int heads = dtypeOffset("encoder/num_heads", 0) + 5;
        assertRejected(withBin(patchShort(modelBin, heads, 3)), "model.bin", "not a multiple of the number of heads");
    }

    @Test
    void badVocabularyAndConfig() {
        assertRejected(copy(d -> writeString(d.resolve("vocabulary.json"), "{")), "vocabulary.json", "not valid JSON");
        assertRejected(copy(d -> writeString(d.resolve("vocabulary.json"), "[\"a\"]")), "vocabulary.json",
                "has 1 tokens");
        assertRejected(copy(d -> writeString(d.resolve("config.json"), "{\"suppress_ids\": [99999]}")), "config.json",
                "suppress_ids has 99999, not a token id below 51864");
        assertRejected(copy(d -> writeString(d.resolve("config.json"), "{\"alignment_heads\": [[5, 0]]}")),
                "config.json", "alignment_heads has [5,0]");
    }

    @Test
    void vocabularyTxtAndDefaultsWithoutConfig() throws IOException {
        Path d = copy(dir -> {
            delete(dir.resolve("config.json"));
            delete(dir.resolve("vocabulary.json"));
            writeString(dir.resolve("vocabulary.txt"), String.join("\n", Ct2Writer.tokens(51864)) + "\n");
        });
        try (Ct2ModelDirectory m = Ct2ModelDirectory.open(d); Ct2ModelDirectory ref = Ct2ModelDirectory.open(good.dir())) {
            assertThat(m.generation().suppressTokens()).isEqualTo(ref.generation().suppressTokens());
            assertThat(m.generation().beginSuppressTokens()).containsExactly(220, 50256);
            assertThat(m.alignmentHeads()).isEmpty();
            assertThat(m.vocabulary().bytes(50255)).isEqualTo(ref.vocabulary().bytes(50255));
        }
    }

    @Test
    void tokenizerJsonAsFasterWhisperShipsIt() throws IOException {
        java.util.List<String> tokens = Ct2Writer.tokens(51864);
        var vocab = new java.util.LinkedHashMap<String, Integer>();
        var added = new java.util.ArrayList<java.util.Map<String, Object>>();
        for (int id = 0; id < tokens.size(); id++) {
            if (id <= 50256) {
                vocab.put(tokens.get(id), id);
            } else {
                added.add(java.util.Map.of("id", id, "content", tokens.get(id), "special", true));
            }
        }
        String json = new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(
                java.util.Map.of("model", java.util.Map.of("type", "BPE", "vocab", vocab), "added_tokens", added));
        Path d = copy(dir -> {
            delete(dir.resolve("vocabulary.json"));
            writeString(dir.resolve("tokenizer.json"), json);
        });
        try (Ct2ModelDirectory m = Ct2ModelDirectory.open(d); Ct2ModelDirectory ref = Ct2ModelDirectory.open(good.dir())) {
            assertThat(m.vocabulary().languageCodes()).isEqualTo(ref.vocabulary().languageCodes());
            assertThat(m.vocabulary().bytes(198)).isEqualTo(ref.vocabulary().bytes(198)).isEqualTo(new byte[] {'\n'});
        }
        assertRejected(copy(dir -> {
            delete(dir.resolve("vocabulary.json"));
            writeString(dir.resolve("tokenizer.json"), json.replace("\"<|startoftranscript|>\"", "\"<|sot|>\""));
        }), "tokenizer.json", "token 50257 is '<|sot|>', expected <|startoftranscript|>");
    }

    @Test
    void duplicateTokensAreNotABpeVocabulary() {
        java.util.List<String> tokens = new java.util.ArrayList<>(Ct2Writer.tokens(51864));
        tokens.set(1000, tokens.get(999));
        assertRejected(copy(d -> writeString(d.resolve("vocabulary.json"), toJson(tokens))), "vocabulary.json",
                "not a byte-level BPE vocabulary (tokens 999 and 1000 have the same bytes)");
    }

    private static String toJson(Object o) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(o);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Offset of the dtype byte of a variable of this rank: after its name string, rank byte and dims. */
    private static int dtypeOffset(String variable, int rank) {
        return (int) (long) good.variableOffsets().get(variable) + 2 + variable.length() + 1 + 1 + 4 * rank;
    }

    private static Path withBin(byte[] bin) {
        return copy(d -> {
            try {
                Files.write(d.resolve("model.bin"), bin);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    private static Path copy(Consumer<Path> change) {
        Path d = root.resolve("copy" + copies++);
        try {
            Files.createDirectories(d);
            for (String f : new String[] {"model.bin", "config.json", "vocabulary.json"}) {
                Files.copy(good.dir().resolve(f), d.resolve(f), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        change.accept(d);
        return d;
    }

    private static void delete(Path p) {
        try {
            Files.delete(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void writeString(Path p, String s) {
        try {
            Files.writeString(p, s, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static byte[] patchInt(byte[] b, int at, int v) {
        byte[] out = b.clone();
        ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putInt(at, v);
        return out;
    }

    private static byte[] patchShort(byte[] b, int at, int v) {
        byte[] out = b.clone();
        ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putShort(at, (short) v);
        return out;
    }

    private static byte[] patchByte(byte[] b, int at, int v) {
        byte[] out = b.clone();
        out[at] = (byte) v;
        return out;
    }

    /** @param file the file the message must start with, relative to the directory ("" for the directory) */
    private static void assertRejected(Path dir, String file, String says) {
        Path named = file.isEmpty() || !Files.isDirectory(dir) ? dir : dir.resolve(file);
        assertThatThrownBy(() -> Ct2ModelDirectory.open(dir).close()).isInstanceOf(ModelFormatException.class)
                .hasMessageStartingWith(named.toString()).hasMessageContaining(says)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
