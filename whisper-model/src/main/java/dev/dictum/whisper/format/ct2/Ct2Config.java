package dev.dictum.whisper.format.ct2;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dictum.whisper.format.ModelFormatException;
import dev.dictum.whisper.format.UntrustedText;
import dev.dictum.whisper.format.WhisperDims;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A Whisper model's config.json (specs/whisper_spec.py WhisperConfig, written since binary
 * version 6): {@code suppress_ids}, {@code suppress_ids_begin}, {@code lang_ids} and
 * {@code alignment_heads} ([layer, head] pairs). Any of them may be null or absent; lists that
 * are absent are null here, and the caller falls back to OpenAI's defaults.
 */
record Ct2Config(int[] suppressIds, int[] suppressIdsBegin, int[] langIds, List<AlignmentHead> alignmentHeads) {

    static Ct2Config read(Path dir, WhisperDims dims) {
        Path file = dir.resolve("config.json");
        if (!Files.exists(file)) {
            return new Ct2Config(null, null, null, List.of());
        }
        JsonNode root = Ct2VocabularyFile.json(file);
        if (!root.isObject()) {
            throw new ModelFormatException(file + ": expected a JSON object");
        }
        // OpenAI's "-1" (the default non-speech list) is allowed in suppress_ids and expanded by the caller.
        return new Ct2Config(ids(root, "suppress_ids", -1, dims, file), ids(root, "suppress_ids_begin", 0, dims, file),
                ids(root, "lang_ids", 0, dims, file), heads(root, dims, file));
    }

    private static int[] ids(JsonNode root, String key, int lowest, WhisperDims dims, Path file) {
        JsonNode node = root.get(key);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isArray()) {
            throw new ModelFormatException(file + ": " + key + " is not a list");
        }
        int[] ids = new int[node.size()];
        for (int i = 0; i < ids.length; i++) {
            JsonNode n = node.get(i);
            if (!n.canConvertToInt() || !n.isIntegralNumber() || n.intValue() < lowest || n.intValue() >= dims.nVocab()) {
                throw new ModelFormatException(file + ": " + key + " has " + UntrustedText.oneLine(n.toString()) + ", not a token id below " + dims.nVocab());
            }
            ids[i] = n.intValue();
        }
        return ids;
    }

    private static List<AlignmentHead> heads(JsonNode root, WhisperDims dims, Path file) {
        JsonNode node = root.get("alignment_heads");
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            throw new ModelFormatException(file + ": alignment_heads is not a list");
        }
        List<AlignmentHead> heads = new ArrayList<>();
        for (JsonNode pair : node) {
            if (!pair.isArray() || pair.size() != 2 || !pair.get(0).isIntegralNumber() || !pair.get(1).isIntegralNumber()
                    || pair.get(0).asLong() < 0 || pair.get(0).asLong() >= dims.nTextLayer()
                    || pair.get(1).asLong() < 0 || pair.get(1).asLong() >= dims.nTextHead()) {
                throw new ModelFormatException(file + ": alignment_heads has " + UntrustedText.oneLine(pair.toString()) + ", not a [layer, head] of a model with "
                        + dims.nTextLayer() + " decoder layers of " + dims.nTextHead() + " heads");
            }
            heads.add(new AlignmentHead(pair.get(0).intValue(), pair.get(1).intValue()));
        }
        return List.copyOf(heads);
    }
}
