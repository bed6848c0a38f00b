package dev.dictum.whisper.format.hf;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dictum.whisper.format.GenerationConfig;
import dev.dictum.whisper.format.ModelFormatException;
import dev.dictum.whisper.tokenizer.BpeTokenizer;
import dev.dictum.whisper.tokenizer.SpecialTokens;
import dev.dictum.whisper.tokenizer.SuppressTokens;
import java.nio.file.Path;

/**
 * Decoding defaults from generation_config.json; a field (or the whole file) that is absent gets
 * what OpenAI's decoder uses: its computed suppress list, begin-suppress of space and eot, and a
 * first timestamp of at most 1.0 s.
 */
final class HfGeneration {
    /** OpenAI's max_initial_timestamp of 1.0 s in 0.02 s steps. */
    static final int DEFAULT_MAX_INITIAL_TIMESTAMP_INDEX = 50;

    private HfGeneration() {
    }

    /** @param generation the contents of {@code file}, or null if the directory has none */
    static GenerationConfig read(JsonNode generation, Path file, BpeTokenizer tokenizer) {
        SpecialTokens specials = tokenizer.specials();
        int[] suppress = null;
        int[] begin = null;
        Integer maxInitial = null;
        if (generation != null) {
            suppress = checkedIds(JsonFiles.optionalIntArray(generation, "suppress_tokens", file), "suppress_tokens",
                    file, specials.vocabSize());
            begin = checkedIds(JsonFiles.optionalIntArray(generation, "begin_suppress_tokens", file),
                    "begin_suppress_tokens", file, specials.vocabSize());
            maxInitial = JsonFiles.optionalInt(generation, "max_initial_timestamp_index", file);
            if (maxInitial != null && (maxInitial < 0 || maxInitial >= SpecialTokens.TIMESTAMP_COUNT)) {
                throw new ModelFormatException(file + ": max_initial_timestamp_index " + maxInitial
                        + " is outside 0.." + (SpecialTokens.TIMESTAMP_COUNT - 1));
            }
        }
        return new GenerationConfig(
                suppress != null ? suppress : SuppressTokens.openAiDefault(tokenizer, specials),
                begin != null ? begin : SuppressTokens.openAiBeginSuppress(tokenizer, specials),
                maxInitial != null ? maxInitial : DEFAULT_MAX_INITIAL_TIMESTAMP_INDEX);
    }

    private static int[] checkedIds(int[] ids, String field, Path file, int vocabSize) {
        if (ids != null) {
            for (int id : ids) {
                if (id < 0 || id >= vocabSize) {
                    throw new ModelFormatException(file + ": " + field + " holds token " + id
                            + ", outside the vocabulary of " + vocabSize);
                }
            }
        }
        return ids;
    }
}
