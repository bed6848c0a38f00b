package dev.dictum.whisper.testutil;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.tokenizer.BpeTokenizer;
import dev.dictum.whisper.tokenizer.ByteLevelAlphabet;
import dev.dictum.whisper.tokenizer.LanguageCodes;
import dev.dictum.whisper.tokenizer.SpecialTokens;
import dev.dictum.whisper.tokenizer.SuppressTokens;
import dev.dictum.whisper.tokenizer.Vocabulary;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Writes a {@link RandomWhisper} model as a CTranslate2 model directory the way the converter
 * does (specs/model_spec.py _serialize and _quantize, converters/transformers.py WhisperLoader):
 * model.bin binary version 6, spec "WhisperSpec" revision 3, variables sorted by name, q/k/v fused
 * into self_attention/linear_0 and cross-attention k/v into attention/linear_1 (zero bias block
 * for k), decoder/projection/weight as an alias of decoder/embeddings/weight; config.json and
 * vocabulary.json. Variables are produced one at a time.
 */
public final class Ct2Writer {

    /** Converter quantization modes: weights' type, and the type of the other float variables. */
    public enum Type {
        FLOAT32(false, 0), FLOAT16(false, 4), BFLOAT16(false, 5), INT8(true, 0), INT8_FLOAT16(true, 4);

        final boolean int8;
        final int floatId;

        Type(boolean int8, int floatId) {
            this.int8 = int8;
            this.floatId = floatId;
        }
    }

    /** @param variableOffsets CTranslate2 variable name to the offset of its header in model.bin */
    public record Written(Path dir, Path modelBin, Map<String, Long> variableOffsets) {
    }

    private record Variable(long[] shape, boolean quantizable, Supplier<float[]> values, int scalarType, int scalar) {
    }

    private static final int INT8 = 1;
    private static final int INT16 = 2;

    private Ct2Writer() {
    }

    public static Written write(Path dir, WhisperDims d, long seed, Type type) {
        try {
            Files.createDirectories(dir);
            Path bin = dir.resolve("model.bin");
            Map<String, Long> offsets = modelBin(bin, variables(d, seed), type);
            vocabulary(dir, d);
            config(dir, d);
            return new Written(dir, bin, offsets);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, Variable> variables(WhisperDims d, long seed) {
        Map<String, long[]> shapes = RandomWhisper.shapes(d);
        Map<String, Variable> v = new TreeMap<>(); // the converter writes variables sorted by name
        Canonical c = new Canonical(shapes, seed);
        v.put("encoder/num_heads", scalar(INT16, d.nAudioHead()));
        v.put("decoder/num_heads", scalar(INT16, d.nTextHead()));
        v.put("decoder/activation", scalar(INT8, 3)); // GELU since spec revision 3
        v.put("decoder/pre_norm", scalar(INT8, 1));
        v.put("decoder/scale_embeddings", scalar(INT8, 0));
        v.put("decoder/alignment_layer", scalar(INT16, -1));
        v.put("decoder/alignment_heads", scalar(INT16, 1));
        for (String conv : List.of("conv1", "conv2")) {
            v.put("encoder/" + conv + "/weight", c.tensor("encoder." + conv + ".weight", true));
            v.put("encoder/" + conv + "/bias", c.tensor("encoder." + conv + ".bias", false));
        }
        v.put("encoder/position_encodings/encodings", c.tensor("encoder.positional_embedding", false));
        norm(v, c, "encoder/layer_norm", "encoder.ln_post");
        for (int i = 0; i < d.nAudioLayer(); i++) {
            layer(v, c, "encoder/layer_" + i + "/", "encoder.blocks." + i + ".", d.nAudioState(), false);
        }
        v.put("decoder/embeddings/weight", c.tensor("decoder.token_embedding.weight", true));
        v.put("decoder/position_encodings/encodings", c.tensor("decoder.positional_embedding", false));
        norm(v, c, "decoder/layer_norm", "decoder.ln");
        for (int i = 0; i < d.nTextLayer(); i++) {
            layer(v, c, "decoder/layer_" + i + "/", "decoder.blocks." + i + ".", d.nTextState(), true);
        }
        return v;
    }

    private static void layer(Map<String, Variable> v, Canonical c, String s, String k, int n, boolean decoder) {
        v.put(s + "self_attention/linear_0/weight", c.fused(n, true, k + "attn.query.weight", k + "attn.key.weight",
                k + "attn.value.weight"));
        v.put(s + "self_attention/linear_0/bias", c.fused(n, false, k + "attn.query.bias", null, k + "attn.value.bias"));
        linear(v, c, s + "self_attention/linear_1", k + "attn.out");
        norm(v, c, s + "self_attention/layer_norm", k + "attn_ln");
        if (decoder) {
            linear(v, c, s + "attention/linear_0", k + "cross_attn.query");
            v.put(s + "attention/linear_1/weight", c.fused(n, true, k + "cross_attn.key.weight",
                    k + "cross_attn.value.weight"));
            v.put(s + "attention/linear_1/bias", c.fused(n, false, null, k + "cross_attn.value.bias"));
            linear(v, c, s + "attention/linear_2", k + "cross_attn.out");
            norm(v, c, s + "attention/layer_norm", k + "cross_attn_ln");
        }
        linear(v, c, s + "ffn/linear_0", k + "mlp.0");
        linear(v, c, s + "ffn/linear_1", k + "mlp.2");
        norm(v, c, s + "ffn/layer_norm", k + "mlp_ln");
    }

    private static void linear(Map<String, Variable> v, Canonical c, String scope, String canonical) {
        v.put(scope + "/weight", c.tensor(canonical + ".weight", true));
        v.put(scope + "/bias", c.tensor(canonical + ".bias", false));
    }

    private static void norm(Map<String, Variable> v, Canonical c, String scope, String canonical) {
        v.put(scope + "/gamma", c.tensor(canonical + ".weight", false));
        v.put(scope + "/beta", c.tensor(canonical + ".bias", false));
    }

    private static Variable scalar(int type, int value) {
        return new Variable(new long[0], false, null, type, value);
    }

    /** Canonical tensors of the random model, generated on demand. */
    private record Canonical(Map<String, long[]> shapes, long seed) {
        Variable tensor(String name, boolean quantizable) {
            long[] shape = shapes.get(name);
            return new Variable(shape, quantizable, () -> RandomWhisper.values(name, shape, seed).values(), 0, 0);
        }

        /** Row blocks of n rows each, concatenated; a null name is a zero block (k's bias). */
        Variable fused(int n, boolean quantizable, String... names) {
            long[] part = names[0] != null ? shapes.get(names[0]) : shapes.get(names[1]);
            long[] shape = part.clone();
            shape[0] = (long) n * names.length;
            return new Variable(shape, quantizable, () -> {
                int partSize = Math.toIntExact(java.util.Arrays.stream(part).reduce(1, (a, b) -> a * b));
                float[] all = new float[partSize * names.length];
                for (int i = 0; i < names.length; i++) {
                    if (names[i] != null) {
                        System.arraycopy(RandomWhisper.values(names[i], part, seed).values(), 0, all, i * partSize,
                                partSize);
                    }
                }
                return all;
            }, 0, 0);
        }
    }

    private static Map<String, Long> modelBin(Path file, Map<String, Variable> variables, Type type) {
        Map<String, Long> offsets = new LinkedHashMap<>();
        Map<String, Variable> scales = new TreeMap<>();
        try (LeOutput out = new LeOutput(file)) {
            out.i32(6);
            string(out, "WhisperSpec");
            out.i32(3);
            // Quantized weights bring a weight_scale variable each; names sort before writing.
            Map<String, Object> all = new TreeMap<>(variables);
            if (type.int8) {
                variables.forEach((n, v) -> {
                    if (v.quantizable()) {
                        all.put(n + "_scale", n);
                    }
                });
            }
            out.i32(all.size());
            Map<String, float[]> pendingScales = new LinkedHashMap<>();
            for (var e : all.entrySet()) {
                offsets.put(e.getKey(), out.position());
                string(out, e.getKey());
                if (e.getValue() instanceof String weight) {
                    float[] s = pendingScales.remove(weight);
                    header(out, new long[] {s.length}, 0, 4L * s.length);
                    for (float x : s) {
                        out.f32(x);
                    }
                    continue;
                }
                Variable v = (Variable) e.getValue();
                if (v.values() == null) {
                    header(out, v.shape(), v.scalarType(), v.scalarType() == INT16 ? 2 : 1);
                    if (v.scalarType() == INT16) {
                        out.u16(v.scalar());
                    } else {
                        out.u8(v.scalar());
                    }
                    continue;
                }
                float[] x = v.values().get();
                if (type.int8 && v.quantizable()) {
                    header(out, v.shape(), INT8, x.length);
                    pendingScales.put(e.getKey(), int8(x, (int) v.shape()[0], out));
                } else {
                    int id = type.floatId;
                    header(out, v.shape(), id, (long) x.length * (id == 0 ? 4 : 2));
                    for (float f : x) {
                        switch (id) {
                            case 0 -> out.f32(f);
                            case 4 -> out.f16(f);
                            default -> out.bf16(f);
                        }
                    }
                }
            }
            out.i32(1);
            string(out, "decoder/projection/weight");
            string(out, "decoder/embeddings/weight");
        }
        return offsets;
    }

    /**
     * model_spec.py _quantize for int8: per row (conv kernels flattened), scale = 127 / max|row|
     * (127 where the row is zero), q = rint(x * scale). Writes q, returns the scales.
     */
    private static float[] int8(float[] x, int rows, LeOutput out) {
        int cols = x.length / rows;
        float[] scales = new float[rows];
        for (int r = 0; r < rows; r++) {
            float amax = 0;
            for (int j = 0; j < cols; j++) {
                amax = Math.max(amax, Math.abs(x[r * cols + j]));
            }
            float scale = 127.0f / (amax == 0 ? 127.0f : amax);
            scales[r] = scale;
            for (int j = 0; j < cols; j++) {
                out.u8((int) Math.rint(x[r * cols + j] * scale));
            }
        }
        return scales;
    }

    private static void header(LeOutput out, long[] shape, int dtype, long bytes) {
        out.u8(shape.length);
        for (long s : shape) {
            out.i32((int) s);
        }
        out.u8(dtype);
        out.i32((int) bytes);
    }

    private static void string(LeOutput out, String s) {
        byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.u16(b.length + 1).bytes(b).u8(0);
    }

    /** vocabulary.json: byte-level spellings of the text tokens, then every special token by name. */
    private static void vocabulary(Path dir, WhisperDims d) throws IOException {
        List<String> tokens = new ArrayList<>(tokens(d.nVocab()));
        new ObjectMapper().writeValue(dir.resolve("vocabulary.json").toFile(), tokens);
    }

    public static List<String> tokens(int nVocab) {
        SpecialTokens s = SpecialTokens.forVocabSize(nVocab);
        List<String> tokens = new ArrayList<>(nVocab);
        ToyVocabularies.textTokens(nVocab).forEach(b -> tokens.add(ByteLevelAlphabet.spell(b)));
        tokens.add("<|endoftext|>");
        tokens.add("<|startoftranscript|>");
        LanguageCodes.first(s.languageCount()).forEach(c -> tokens.add("<|" + c + "|>"));
        tokens.addAll(List.of("<|translate|>", "<|transcribe|>", "<|startoflm|>", "<|startofprev|>", "<|nospeech|>",
                "<|notimestamps|>"));
        for (int i = 0; i < SpecialTokens.TIMESTAMP_COUNT; i++) {
            tokens.add(String.format(Locale.ROOT, "<|%.2f|>", i * 0.02));
        }
        return tokens;
    }

    /** config.json as WhisperLoader.set_config writes it from a generation config. */
    private static void config(Path dir, WhisperDims d) throws IOException {
        SpecialTokens s = SpecialTokens.forVocabSize(d.nVocab());
        BpeTokenizer tokenizer = new BpeTokenizer(new Vocabulary(ToyVocabularies.textTokens(d.nVocab()), s,
                LanguageCodes.first(s.languageCount())));
        List<Integer> langIds = new ArrayList<>();
        for (int i = 0; i < s.languageCount(); i++) {
            langIds.add(s.firstLanguage() + i);
        }
        List<List<Integer>> heads = new ArrayList<>();
        for (int layer = d.nTextLayer() / 2; layer < d.nTextLayer(); layer++) {
            for (int head = 0; head < d.nTextHead(); head++) {
                heads.add(List.of(layer, head));
            }
        }
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("alignment_heads", heads);
        config.put("lang_ids", langIds);
        config.put("suppress_ids", SuppressTokens.openAiDefault(tokenizer, s));
        config.put("suppress_ids_begin", SuppressTokens.openAiBeginSuppress(tokenizer, s));
        new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(dir.resolve("config.json").toFile(), config);
    }
}
