package dev.dictum.whisper.format.hf;

import dev.dictum.whisper.format.UntrustedText;
import com.fasterxml.jackson.databind.JsonNode;
import dev.dictum.whisper.format.ModelFormatException;
import dev.dictum.whisper.tokenizer.LanguageCodes;
import dev.dictum.whisper.tokenizer.SpecialTokens;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cross-checks every special-token id that a Hugging Face directory states (config.json,
 * generation_config.json, added tokens, vocab.json) against the ids that the vocabulary size
 * implies, and reads the language codes in token order. The engine derives ids from the size, as
 * whisper.cpp does; a directory that says otherwise was built for another layout (e.g. a large-v2
 * tokenizer next to large-v3 weights) and would decode garbage, so it is refused.
 */
final class HfSpecialTokens {
    /** Every language Whisper knows, to tell {@code <|de|>} from other {@code <|..|>} tokens. */
    private static final Set<String> KNOWN_LANGUAGES = Set.copyOf(LanguageCodes.first(100));

    private HfSpecialTokens() {
    }

    /**
     * Checks the stated ids and returns the language codes in token order.
     *
     * @param generation generation_config.json, or null when absent
     * @throws ModelFormatException naming the file, the stated id and the implied one on any mismatch
     */
    static List<String> check(SpecialTokens expected, HfConfig config, String configFile, JsonNode generation,
            String generationFile, HfTokenizerFiles files) {
        Checker c = new Checker(expected);
        c.id(configFile, "decoder_start_token_id", config.json().get("decoder_start_token_id"), expected.sot());
        c.id(configFile, "eos_token_id", config.json().get("eos_token_id"), expected.eot());
        if (generation != null) {
            c.id(generationFile, "decoder_start_token_id", generation.get("decoder_start_token_id"), expected.sot());
            c.id(generationFile, "eos_token_id", generation.get("eos_token_id"), expected.eot());
            c.id(generationFile, "no_timestamps_token_id", generation.get("no_timestamps_token_id"),
                    expected.noTimestamps());
            c.id(generationFile, "prev_sot_token_id", generation.get("prev_sot_token_id"), expected.startOfPrev());
            JsonNode tasks = generation.get("task_to_id");
            if (tasks != null && tasks.isObject()) {
                c.id(generationFile, "task_to_id.translate", tasks.get("translate"), expected.translate());
                c.id(generationFile, "task_to_id.transcribe", tasks.get("transcribe"), expected.transcribe());
            }
        }
        c.contents(files.vocabSource(), files.vocab());
        if (files.addedSource() != null) {
            c.contents(files.addedSource(), files.added());
        }

        List<String> codes = null;
        if (files.addedSource() != null) {
            codes = c.languages(files.addedSource(), files.added());
        }
        Map<String, Integer> langToId = generation == null ? Map.of() : langToId(generation, generationFile);
        if (codes == null && !langToId.isEmpty()) {
            codes = c.languages(generationFile + " (lang_to_id)", langToId);
        }
        if (codes == null) {
            codes = LanguageCodes.first(expected.languageCount());
        }
        for (Map.Entry<String, Integer> e : langToId.entrySet()) {
            String code = e.getKey().substring(2, e.getKey().length() - 2);
            int i = codes.indexOf(code);
            if (i < 0) {
                throw new ModelFormatException(generationFile + ": lang_to_id names " + UntrustedText.oneLine(e.getKey())
                        + ", which is not among the model's " + codes.size() + " language tokens");
            }
            c.mismatch(generationFile, "lang_to_id " + e.getKey(), e.getValue(), expected.firstLanguage() + i);
        }
        return codes;
    }

    private static Map<String, Integer> langToId(JsonNode generation, String file) {
        JsonNode node = generation.get("lang_to_id");
        if (node == null || node.isNull()) {
            return Map.of();
        }
        if (!node.isObject()) {
            throw new ModelFormatException(file + ": lang_to_id is not an object");
        }
        Map<String, Integer> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            if (!e.getValue().isIntegralNumber() || !e.getValue().canConvertToInt() || !isLanguage(e.getKey())) {
                throw new ModelFormatException(file + ": lang_to_id has entry " + UntrustedText.quoted(e.getKey()) + ": "
                        + UntrustedText.oneLine(e.getValue().toString()));
            }
            out.put(e.getKey(), e.getValue().intValue());
        }
        return out;
    }

    private static boolean isLanguage(String content) {
        return HfTextTokens.isSpecial(content) && KNOWN_LANGUAGES.contains(content.substring(2, content.length() - 2));
    }

    /** Holds the implied ids and builds the messages. */
    private record Checker(SpecialTokens expected) {

        /** An id field that is an integer or (as eos sometimes is) a list that must contain the implied id. */
        void id(String file, String field, JsonNode value, int implied) {
            if (value == null || value.isNull()) {
                return;
            }
            if (value.isIntegralNumber() && value.canConvertToInt()) {
                mismatch(file, field, value.intValue(), implied);
                return;
            }
            if (value.isArray()) {
                for (JsonNode v : value) {
                    if (v.isIntegralNumber() && v.canConvertToInt() && v.intValue() == implied) {
                        return;
                    }
                }
            }
            throw new ModelFormatException(file + ": " + field + " is " + UntrustedText.oneLine(value.toString())
                    + ", but vocab_size " + expected.vocabSize() + " implies " + implied);
        }

        void mismatch(String file, String what, int stated, int implied) {
            if (stated != implied) {
                throw new ModelFormatException(file + ": " + what + " has id " + stated + ", but vocab_size "
                        + expected.vocabSize() + " implies " + implied);
            }
        }

        /** The named special tokens, wherever a token table lists them. */
        void contents(String file, Map<String, Integer> table) {
            Map<String, Integer> implied = new LinkedHashMap<>();
            implied.put("<|endoftext|>", expected.eot());
            implied.put("<|startoftranscript|>", expected.sot());
            implied.put("<|translate|>", expected.translate());
            implied.put("<|transcribe|>", expected.transcribe());
            implied.put("<|startoflm|>", expected.startOfLm());
            implied.put("<|startofprev|>", expected.startOfPrev());
            implied.put("<|nospeech|>", expected.noSpeech());
            implied.put("<|nocaptions|>", expected.noSpeech()); // its name in older tokenizer files
            implied.put("<|notimestamps|>", expected.noTimestamps());
            implied.put("<|0.00|>", expected.timestampBegin());
            implied.put("<|30.00|>", expected.vocabSize() - 1);
            implied.forEach((content, id) -> {
                Integer stated = table.get(content);
                if (stated != null) {
                    mismatch(file, content, stated, id);
                }
            });
        }

        /** The language tokens of a table in id order, checked to be the implied block; null if it has none. */
        List<String> languages(String file, Map<String, Integer> table) {
            List<Map.Entry<String, Integer>> langs = new ArrayList<>();
            for (Map.Entry<String, Integer> e : table.entrySet()) {
                if (isLanguage(e.getKey())) {
                    langs.add(e);
                }
            }
            if (langs.isEmpty()) {
                return null;
            }
            langs.sort(Map.Entry.comparingByValue(Comparator.naturalOrder()));
            if (langs.size() != expected.languageCount()) {
                throw new ModelFormatException(file + ": lists " + langs.size() + " language tokens, but vocab_size "
                        + expected.vocabSize() + " implies " + expected.languageCount());
            }
            List<String> codes = new ArrayList<>(langs.size());
            for (int i = 0; i < langs.size(); i++) {
                Map.Entry<String, Integer> e = langs.get(i);
                mismatch(file, e.getKey(), e.getValue(), expected.firstLanguage() + i);
                codes.add(e.getKey().substring(2, e.getKey().length() - 2));
            }
            return List.copyOf(codes);
        }
    }
}
