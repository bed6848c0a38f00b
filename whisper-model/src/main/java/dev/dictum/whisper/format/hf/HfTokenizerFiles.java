package dev.dictum.whisper.format.hf;

import dev.dictum.whisper.format.UntrustedText;
import com.fasterxml.jackson.databind.JsonNode;
import dev.dictum.whisper.format.ModelFormatException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The token tables of a Hugging Face directory, from whichever files it has: the BPE vocabulary
 * (vocab.json, else tokenizer.json's model.vocab) and the added special tokens
 * (added_tokens.json, else tokenizer.json's added_tokens). Spellings are GPT-2 byte-level strings.
 *
 * @param vocab       spelled token to id, as the vocabulary file lists it (may include {@code <|endoftext|>})
 * @param vocabSource the file {@code vocab} came from, for messages
 * @param added       special-token content to id; empty if the directory states none
 * @param addedSource the file {@code added} came from, or null
 */
record HfTokenizerFiles(Map<String, Integer> vocab, String vocabSource, Map<String, Integer> added,
        String addedSource) {

    static HfTokenizerFiles read(Path dir) {
        Path vocabJson = dir.resolve("vocab.json");
        Path addedJson = dir.resolve("added_tokens.json");
        Path tokenizerJson = dir.resolve("tokenizer.json");
        boolean haveVocab = Files.exists(vocabJson);
        boolean haveAdded = Files.exists(addedJson);
        // tokenizer.json is large (4 MB); read it only for what the small files do not give.
        JsonNode tokenizer = haveVocab && haveAdded ? null : JsonFiles.readObjectIfPresent(tokenizerJson);
        if (!haveVocab && tokenizer == null) {
            throw new ModelFormatException(dir + ": no vocab.json and no tokenizer.json, so there is no vocabulary");
        }

        Map<String, Integer> vocab;
        String vocabSource;
        if (haveVocab) {
            vocab = idMap(JsonFiles.readObject(vocabJson), vocabJson.toString());
            vocabSource = vocabJson.toString();
        } else {
            vocabSource = tokenizerJson + " (model.vocab)";
            JsonNode model = tokenizer.get("model");
            if (model == null || !model.isObject() || !"BPE".equals(model.path("type").asText("BPE"))) {
                throw new ModelFormatException(tokenizerJson + ": model is not a BPE tokenizer");
            }
            JsonNode v = model.get("vocab");
            if (v == null || !v.isObject()) {
                throw new ModelFormatException(tokenizerJson + ": model.vocab is missing");
            }
            vocab = idMap(v, vocabSource);
        }

        Map<String, Integer> added = Map.of();
        String addedSource = null;
        if (haveAdded) {
            addedSource = addedJson.toString();
            added = idMap(JsonFiles.readObject(addedJson), addedSource);
        } else if (tokenizer != null && tokenizer.has("added_tokens")) {
            addedSource = tokenizerJson + " (added_tokens)";
            added = addedTokens(tokenizer.get("added_tokens"), addedSource);
        }
        return new HfTokenizerFiles(vocab, vocabSource, added, addedSource);
    }

    /** A JSON object of string to id. */
    private static Map<String, Integer> idMap(JsonNode obj, String source) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : obj.properties()) {
            JsonNode v = e.getValue();
            if (!v.isIntegralNumber() || !v.canConvertToInt() || v.intValue() < 0) {
                throw new ModelFormatException(source + ": token " + UntrustedText.quoted(e.getKey()) + " has id "
                        + UntrustedText.oneLine(v.toString()) + ", expected a non-negative integer");
            }
            out.put(e.getKey(), v.intValue());
        }
        return out;
    }

    /** tokenizer.json's added_tokens: an array of {id, content, ...}. */
    private static Map<String, Integer> addedTokens(JsonNode array, String source) {
        if (!array.isArray()) {
            throw new ModelFormatException(source + " is not an array");
        }
        Map<String, Integer> out = new LinkedHashMap<>();
        for (JsonNode t : array) {
            JsonNode id = t.get("id");
            JsonNode content = t.get("content");
            if (id == null || !id.canConvertToInt() || !id.isIntegralNumber() || content == null
                    || !content.isTextual()) {
                throw new ModelFormatException(source + ": entry " + UntrustedText.oneLine(t.toString())
                        + " has no integer id or no content");
            }
            if (out.put(content.textValue(), id.intValue()) != null) {
                throw new ModelFormatException(source + ": token " + UntrustedText.quoted(content.textValue())
                        + " is listed twice");
            }
        }
        return out;
    }
}
