package dev.dictum.whisper.format.ggml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dictum.whisper.format.ModelFormatException;
import dev.dictum.whisper.testutil.GgmlWriter;
import dev.dictum.whisper.testutil.TinyWhisper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Broken ggml files fail with a one-line ModelFormatException that names the file and the fault. */
class GgmlBadInputTest {
    @TempDir
    static Path dir;

    private static GgmlWriter.Written good;
    private static byte[] bytes;

    @BeforeAll
    static void writeGoodFile() throws IOException {
        good = GgmlWriter.write(dir.resolve("good.bin"), TinyWhisper.EN, 5, GgmlWriter.Type.Q4_0);
        bytes = Files.readAllBytes(good.file());
        try (GgmlModelFile f = GgmlModelFile.open(good.file())) {
            assertThat(f.names()).hasSize(good.tensorOffsets().size());
        }
    }

    @Test
    void missingFileAndDirectory() {
        assertRejected(dir.resolve("absent.bin"), "no such file");
        assertRejected(dir, "is a directory");
    }

    @Test
    void truncatedInEverySection() throws IOException {
        long first = offset("encoder.conv1.weight");
        record Cut(long at, String says) {
        }
        for (Cut cut : List.of(new Cut(0, "truncated in the magic number"), new Cut(2, "truncated in the magic number"),
                new Cut(4 + 20, "truncated in the hyper-parameters"),
                new Cut(good.filtersOffset() + 4, "truncated in the mel filters"),
                new Cut(good.filtersOffset() + 8 + 1000, "truncated in the mel filters"),
                new Cut(good.vocabOffset() + 2, "truncated in the vocabulary"),
                new Cut(good.vocabOffset() + 9999, "truncated in the vocabulary"),
                new Cut(first + 6, "truncated in the header of tensor #0"),
                new Cut(first + 22, "truncated in the header of tensor #0"),
                new Cut(first + 60, "truncated in the data of tensor 'encoder.conv1.weight'"),
                new Cut(good.size() - 10, "truncated in the data of tensor 'decoder.ln.bias'"))) {
            assertRejected(write("cut-" + cut.at() + ".bin", Arrays.copyOf(bytes, (int) cut.at())), cut.says());
        }
    }

    @Test
    void aFileThatEndsBetweenTensorsLacksTheRest() throws IOException {
        byte[] b = Arrays.copyOf(bytes, (int) offset("decoder.ln.bias"));
        assertRejected(write("short.bin", b), "missing tensor decoder.ln.bias");
    }

    @Test
    void impossibleHeaderFields() throws IOException {
        assertRejected(patched("magic.bin", 0, 0x46554747), "not a whisper.cpp ggml file (magic 0x46554747");
        assertRejected(patched("vocab7.bin", 4, 7), "n_vocab = 7 is outside [51864, 51866]");
        assertRejected(patched("state.bin", 12, -5), "n_audio_state = -5");
        assertRejected(patched("ftype.bin", 4 + 40, -1), "ftype = -1");
        assertRejected(patched("oldq.bin", 4 + 40, 1002), "quantization version 1");
        assertRejected(patched("mels.bin", good.filtersOffset(), 81), "81 mel filters for a model of 80 mel bins");
        assertRejected(patched("ntok.bin", good.vocabOffset(), 12), "the vocabulary has 12 tokens");
        assertRejected(patched("toklen.bin", good.vocabOffset() + 4, 5000), "token 0 is 5000 bytes long");
    }

    @Test
    void impossibleTensors() throws IOException {
        long first = offset("encoder.conv1.weight");
        assertRejected(patched("type99.bin", first + 8, 99), "tensor 'encoder.conv1.weight' has unknown ggml type 99");
        assertRejected(patched("q41.bin", first + 8, 3), "ggml type 3 (q4_1), which Dictum does not read");
        assertRejected(patched("dims.bin", first, 5), "tensor #0 has 5 dimensions");
        assertRejected(patched("name.bin", first + 4, 100000), "tensor #0 has a name of 100000 bytes");
        assertRejected(patched("zero.bin", first + 12, 0), "has dimension 0");
        byte[] huge = patch(patch(patch(bytes, first + 12, 1 << 20), first + 16, 1 << 20), first + 20, 1);
        assertRejected(write("huge.bin", huge), "more than 2^34 elements");
        long q = offset("encoder.blocks.0.attn.query.weight");
        byte[] rows = patch(patch(bytes, q + 12, 16), q + 16, 64); // same count, rows of 16: not whole q4_0 blocks
        assertRejected(write("rows.bin", rows), "Q4_0 with rows of 16 values, not a multiple of 32");
    }

    @Test
    void duplicateMissingAndMisshapenTensors() throws IOException {
        long last = offset("decoder.ln.bias");
        byte[] twice = Arrays.copyOf(bytes, bytes.length + (int) (bytes.length - last));
        System.arraycopy(bytes, (int) last, twice, bytes.length, (int) (bytes.length - last));
        assertRejected(write("twice.bin", twice), "tensor 'decoder.ln.bias' appears twice");
        assertRejected(patched("ctx.bin", 4 + 20, 4),
                "tensor decoder.positional_embedding has shape [8, 32], the model's dimensions need [4, 32]");
        byte[] renamed = bytes.clone();
        int name = (int) last + 12 + 4;
        renamed[name + "decoder.ln.".length()] = 'X'; // decoder.ln.bias -> decoder.ln.Xias
        assertRejected(write("renamed.bin", renamed), "missing tensor decoder.ln.bias");
    }

    @Test
    void tensorLookupsCheckNameAndShape() {
        try (GgmlModelFile f = GgmlModelFile.open(good.file())) {
            assertThatThrownBy(() -> f.tensor("decoder.ln.bias", 33)).isInstanceOf(ModelFormatException.class)
                    .hasMessageContaining("has shape [32], expected [33]");
            assertThatThrownBy(() -> f.tensor("decoder.proj_out.weight", 1)).isInstanceOf(ModelFormatException.class)
                    .hasMessageContaining("missing tensor 'decoder.proj_out.weight'");
        }
    }

    private static long offset(String tensor) {
        return good.tensorOffsets().get(tensor);
    }

    private static Path patched(String name, long at, int value) throws IOException {
        return write(name, patch(bytes, at, value));
    }

    private static byte[] patch(byte[] b, long at, int value) {
        byte[] out = b.clone();
        ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putInt((int) at, value);
        return out;
    }

    private static Path write(String name, byte[] b) throws IOException {
        return Files.write(dir.resolve(name), b);
    }

    static void assertRejected(Path file, String says) {
        assertThatThrownBy(() -> GgmlModelFile.open(file).close()).isInstanceOf(ModelFormatException.class)
                .hasMessageStartingWith(file.toString()).hasMessageContaining(says)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
