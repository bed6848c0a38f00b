package dev.dictum.whisper.testutil;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dictum.gpu.DType;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.tokenizer.LanguageCodes;
import dev.dictum.whisper.tokenizer.SpecialTokens;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Writes Hugging Face layout Whisper directories from {@link RandomWhisper} weights: safetensors
 * (one file or shards with an index) in F32, F16 or BF16, config.json, generation_config.json and
 * the tokenizer files of the toy models. Tensors are generated and written one at a time, so a
 * large-v3 never sits whole on the heap.
 *
 * <p>Tokenizer files: 51864 copies toy-en's, 51866 toy-multi's. For 51865 (tiny .. large-v2) it
 * writes a 99-language variant: toy-multi's BPE (vocab.json, merges.txt are the same for every
 * multilingual model) with added_tokens.json derived for 51865 (no {@code <|yue|>}, every id from
 * translate on one lower); tokenizer.json and friends are left out because they list the
 * large-v3 added tokens.
 */
public final class SafetensorsWriter {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Values converted per write, to keep the byte buffer small for large tensors. */
    private static final int CHUNK = 1 << 20;

    private SafetensorsWriter() {
    }

    /** Writes a complete model directory in one model.safetensors. */
    public static Path writeModel(Path dir, WhisperDims dims, long seed, DType dtype) {
        return writeModel(dir, dims, seed, dtype, 1);
    }

    /**
     * Writes a complete model directory; with {@code shards > 1} the tensors are spread over
     * model-0000i-of-0000n.safetensors with a model.safetensors.index.json.
     */
    public static Path writeModel(Path dir, WhisperDims dims, long seed, DType dtype, int shards) {
        if (dims.nAudioState() != dims.nTextState()) {
            throw new IllegalArgumentException("Hugging Face Whisper has one d_model for both sides");
        }
        try {
            Files.createDirectories(dir);
            Map<String, long[]> shapes = new LinkedHashMap<>();
            RandomWhisper.shapes(dims).forEach((name, shape) -> shapes.put(hfName(name), shape));
            Map<String, String> canonicalOf = new LinkedHashMap<>();
            RandomWhisper.shapes(dims).keySet().forEach(n -> canonicalOf.put(hfName(n), n));
            Function<String, float[]> values = hf -> RandomWhisper.values(canonicalOf.get(hf), shapes.get(hf), seed)
                    .values();
            writeWeights(dir, shapes, values, dtype, shards);
            writeConfig(dir.resolve("config.json"), dims);
            writeTokenizerAndGeneration(dir, dims.nVocab());
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writeWeights(Path dir, Map<String, long[]> shapes, Function<String, float[]> values,
            DType dtype, int shards) throws IOException {
        if (shards <= 1) {
            writeFile(dir.resolve("model.safetensors"), shapes, values, dtype);
            return;
        }
        List<String> names = new ArrayList<>(shapes.keySet());
        ObjectNode weightMap = JSON.createObjectNode();
        for (int s = 0; s < shards; s++) {
            String file = String.format(Locale.ROOT, "model-%05d-of-%05d.safetensors", s + 1, shards);
            Map<String, long[]> part = new LinkedHashMap<>();
            for (int i = s * names.size() / shards; i < (s + 1) * names.size() / shards; i++) {
                part.put(names.get(i), shapes.get(names.get(i)));
                weightMap.put(names.get(i), file);
            }
            writeFile(dir.resolve(file), part, values, dtype);
        }
        ObjectNode index = JSON.createObjectNode();
        index.putObject("metadata");
        index.set("weight_map", weightMap);
        JSON.writerWithDefaultPrettyPrinter().writeValue(dir.resolve("model.safetensors.index.json").toFile(), index);
    }

    /**
     * Writes one safetensors file: tensors in map order, each converted from f32 values to
     * {@code dtype} (round to nearest even), the data section aligned to 8 bytes as the
     * safetensors library does.
     */
    public static void writeFile(Path file, Map<String, long[]> shapes, Function<String, float[]> values,
            DType dtype) throws IOException {
        int size = switch (dtype) {
            case F32 -> 4;
            case F16, BF16 -> 2;
            default -> throw new IllegalArgumentException("safetensors writer: " + dtype);
        };
        ObjectNode header = JSON.createObjectNode();
        header.putObject("__metadata__").put("format", "pt");
        long offset = 0;
        for (Map.Entry<String, long[]> e : shapes.entrySet()) {
            long count = 1;
            ObjectNode t = header.putObject(e.getKey());
            t.put("dtype", dtype.name());
            ArrayNode shape = t.putArray("shape");
            for (long d : e.getValue()) {
                shape.add(d);
                count *= d;
            }
            t.putArray("data_offsets").add(offset).add(offset + count * size);
            offset += count * size;
        }
        byte[] json = JSON.writeValueAsBytes(header);
        int padded = (json.length + 7) / 8 * 8;
        ByteBuffer head = ByteBuffer.allocate(8 + padded).order(ByteOrder.LITTLE_ENDIAN);
        head.putLong(padded).put(json);
        while (head.hasRemaining()) {
            head.put((byte) ' ');
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            writeFully(ch, head.flip());
            ByteBuffer buf = ByteBuffer.allocate(CHUNK * size).order(ByteOrder.LITTLE_ENDIAN);
            for (String name : shapes.keySet()) {
                float[] v = values.apply(name);
                for (int start = 0; start < v.length; start += CHUNK) {
                    buf.clear();
                    for (int i = start; i < Math.min(v.length, start + CHUNK); i++) {
                        switch (dtype) {
                            case F32 -> buf.putFloat(v[i]);
                            case F16 -> buf.putShort(Float.floatToFloat16(v[i]));
                            default -> buf.putShort(toBf16(v[i]));
                        }
                    }
                    writeFully(ch, buf.flip());
                }
            }
        }
    }

    /** bfloat16 with round-to-nearest-even (the top 16 bits of the f32, rounded); NaN stays NaN. */
    public static short toBf16(float f) {
        int bits = Float.floatToRawIntBits(f);
        if (Float.isNaN(f)) {
            return (short) ((bits >>> 16) | 0x0040);
        }
        int lsb = (bits >>> 16) & 1;
        return (short) ((bits + 0x7FFF + lsb) >>> 16);
    }

    public static float fromBf16(short b) {
        return Float.intBitsToFloat((b & 0xFFFF) << 16);
    }

    private static void writeFully(FileChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    /** The Hugging Face name of a canonical (OpenAI) tensor name. */
    public static String hfName(String canonical) {
        String n = canonical
                .replace("encoder.positional_embedding", "encoder.embed_positions.weight")
                .replace("decoder.positional_embedding", "decoder.embed_positions.weight")
                .replace("decoder.token_embedding", "decoder.embed_tokens")
                .replace("encoder.ln_post", "encoder.layer_norm")
                .replace("decoder.ln.", "decoder.layer_norm.")
                .replace(".blocks.", ".layers.")
                .replace(".cross_attn_ln.", ".encoder_attn_layer_norm.")
                .replace(".cross_attn.", ".encoder_attn.")
                .replace(".attn_ln.", ".self_attn_layer_norm.")
                .replace(".attn.", ".self_attn.")
                .replace(".query.", ".q_proj.")
                .replace(".key.", ".k_proj.")
                .replace(".value.", ".v_proj.")
                .replace(".out.", ".out_proj.")
                .replace(".mlp.0.", ".fc1.")
                .replace(".mlp.2.", ".fc2.")
                .replace(".mlp_ln.", ".final_layer_norm.");
        return "model." + n;
    }

    private static void writeConfig(Path file, WhisperDims d) throws IOException {
        SpecialTokens s = SpecialTokens.forVocabSize(d.nVocab());
        ObjectNode c = JSON.createObjectNode();
        c.putArray("architectures").add("WhisperForConditionalGeneration");
        c.put("model_type", "whisper");
        c.put("activation_function", "gelu");
        c.put("num_mel_bins", d.nMels());
        c.put("max_source_positions", d.nAudioCtx());
        c.put("d_model", d.nAudioState());
        c.put("encoder_attention_heads", d.nAudioHead());
        c.put("encoder_layers", d.nAudioLayer());
        c.put("encoder_ffn_dim", 4 * d.nAudioState());
        c.put("vocab_size", d.nVocab());
        c.put("max_target_positions", d.nTextCtx());
        c.put("decoder_attention_heads", d.nTextHead());
        c.put("decoder_layers", d.nTextLayer());
        c.put("decoder_ffn_dim", 4 * d.nTextState());
        c.put("decoder_start_token_id", s.sot());
        c.put("eos_token_id", s.eot());
        c.put("pad_token_id", s.eot());
        c.put("bos_token_id", s.eot());
        c.put("tie_word_embeddings", true);
        c.put("scale_embedding", false);
        c.putArray("begin_suppress_tokens").add(220).add(s.eot());
        JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), c);
    }

    private static void writeTokenizerAndGeneration(Path dir, int nVocab) throws IOException {
        SpecialTokens s = SpecialTokens.forVocabSize(nVocab);
        Path toy = toyModel(nVocab);
        List<String> languages = LanguageCodes.first(s.languageCount());
        for (String f : List.of("vocab.json", "merges.txt")) {
            Files.copy(toy.resolve(f), dir.resolve(f), StandardCopyOption.REPLACE_EXISTING);
        }
        if (nVocab == 51865) {
            Files.writeString(dir.resolve("added_tokens.json"), addedTokens(s, languages).toPrettyString(),
                    StandardCharsets.UTF_8);
        } else {
            for (String f : List.of("added_tokens.json", "tokenizer.json", "tokenizer_config.json",
                    "special_tokens_map.json")) {
                Files.copy(toy.resolve(f), dir.resolve(f), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        writeGeneration(dir.resolve("generation_config.json"), s, languages, toy);
    }

    /** added_tokens.json: every special token after eot (eot itself is in vocab.json). */
    private static ObjectNode addedTokens(SpecialTokens s, List<String> languages) {
        ObjectNode a = JSON.createObjectNode();
        a.put("<|startoftranscript|>", s.sot());
        for (int i = 0; i < languages.size(); i++) {
            a.put("<|" + languages.get(i) + "|>", s.firstLanguage() + i);
        }
        a.put("<|translate|>", s.translate());
        a.put("<|transcribe|>", s.transcribe());
        a.put("<|startoflm|>", s.startOfLm());
        a.put("<|startofprev|>", s.startOfPrev());
        a.put("<|nospeech|>", s.noSpeech());
        a.put("<|notimestamps|>", s.noTimestamps());
        for (int i = 0; i < SpecialTokens.TIMESTAMP_COUNT; i++) {
            a.put(String.format(Locale.ROOT, "<|%.2f|>", i * 0.02), s.timestampBegin() + i);
        }
        return a;
    }

    /**
     * generation_config.json with the ids of this vocabulary size. The suppressed text tokens are
     * the toy model's (they depend only on the BPE); the suppressed specials are derived.
     */
    private static void writeGeneration(Path file, SpecialTokens s, List<String> languages, Path toy)
            throws IOException {
        JsonNode toyGeneration = JSON.readTree(toy.resolve("generation_config.json").toFile());
        ObjectNode g = JSON.createObjectNode();
        g.putArray("begin_suppress_tokens").add(220).add(s.eot());
        g.put("decoder_start_token_id", s.sot());
        g.put("eos_token_id", s.eot());
        g.put("pad_token_id", s.eot());
        g.put("is_multilingual", s.isMultilingual());
        if (s.isMultilingual()) {
            ObjectNode langs = g.putObject("lang_to_id");
            for (int i = 0; i < languages.size(); i++) {
                langs.put("<|" + languages.get(i) + "|>", s.firstLanguage() + i);
            }
            g.putObject("task_to_id").put("translate", s.translate()).put("transcribe", s.transcribe());
        }
        g.put("max_initial_timestamp_index", 50);
        g.put("max_length", 448);
        g.put("no_timestamps_token_id", s.noTimestamps());
        g.put("prev_sot_token_id", s.startOfPrev());
        ArrayNode suppress = g.putArray("suppress_tokens");
        for (JsonNode id : toyGeneration.get("suppress_tokens")) {
            if (id.intValue() < s.eot()) {
                suppress.add(id.intValue());
            }
        }
        for (int id : new int[] {s.sot(), s.translate(), s.transcribe(), s.startOfLm(), s.startOfPrev(),
                s.noSpeech()}) {
            suppress.add(id);
        }
        JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), g);
    }

    /** The toy model whose tokenizer files serve this vocabulary size. */
    public static Path toyModel(int nVocab) {
        String testdata = System.getProperty("dictum.testdata", "testdata");
        return Path.of(testdata, "models", nVocab == 51864 ? "toy-en" : "toy-multi");
    }
}
