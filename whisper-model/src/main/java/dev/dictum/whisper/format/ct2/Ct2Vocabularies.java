package dev.dictum.whisper.format.ct2;

import dev.dictum.whisper.format.ModelFormatException;
import dev.dictum.whisper.format.UntrustedText;
import dev.dictum.whisper.tokenizer.ByteLevelAlphabet;
import dev.dictum.whisper.tokenizer.LanguageCodes;
import dev.dictum.whisper.tokenizer.SpecialTokens;
import dev.dictum.whisper.tokenizer.Vocabulary;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns CTranslate2's token spellings into a {@link Vocabulary}: the ids below eot are BPE text
 * tokens in GPT-2's byte-level alphabet; the special tokens, where the file spells them, must sit
 * at the ids that n_vocab implies, and the language tokens name the language codes.
 */
final class Ct2Vocabularies {
    private Ct2Vocabularies() {
    }

    static Vocabulary of(Ct2VocabularyFile.Tokens file, int nVocab, int[] langIds) {
        List<String> spelled = file.spellings();
        SpecialTokens specials = SpecialTokens.forVocabSize(nVocab);
        if (spelled.size() <= specials.eot() || spelled.size() > nVocab) {
            throw error(file, "has " + spelled.size() + " tokens; the model has " + nVocab + " tokens, "
                    + specials.eot() + " of them text tokens before <|endoftext|>");
        }
        expect(file, specials.eot(), "<|endoftext|>");
        expect(file, specials.sot(), "<|startoftranscript|>");
        expect(file, specials.transcribe(), "<|transcribe|>");
        expect(file, specials.noTimestamps(), "<|notimestamps|>");
        List<byte[]> text = new ArrayList<>(specials.eot());
        for (int id = 0; id < specials.eot(); id++) {
            try {
                text.add(ByteLevelAlphabet.toBytes(spelled.get(id)));
            } catch (IllegalArgumentException e) {
                throw error(file, "token " + id + " " + UntrustedText.quoted(spelled.get(id))
                        + " is not spelled in GPT-2's byte-level alphabet");
            }
        }
        checkLanguageIds(file, specials, langIds);
        return new Vocabulary(text, specials, languageCodes(file, specials));
    }

    /** Codes from the {@code <|xx|>} tokens where the file has them, else OpenAI's order. */
    private static List<String> languageCodes(Ct2VocabularyFile.Tokens file, SpecialTokens specials) {
        List<String> spelled = file.spellings();
        if (spelled.size() < specials.firstLanguage() + specials.languageCount()) {
            return LanguageCodes.first(specials.languageCount());
        }
        List<String> codes = new ArrayList<>(specials.languageCount());
        for (int i = 0; i < specials.languageCount(); i++) {
            int id = specials.firstLanguage() + i;
            String t = spelled.get(id);
            if (!t.startsWith("<|") || !t.endsWith("|>") || t.length() < 5 || t.length() > 12) {
                throw error(file, "token " + id + " is " + UntrustedText.quoted(t) + ", expected a language token");
            }
            codes.add(t.substring(2, t.length() - 2));
        }
        return codes;
    }

    /**
     * lang_ids come from the generation config's lang_to_id or the tokenizer's special tokens,
     * which may add a few non-language ones; they must at least cover the language tokens.
     */
    private static void checkLanguageIds(Ct2VocabularyFile.Tokens file, SpecialTokens specials, int[] langIds) {
        if (langIds == null || langIds.length == 0 || !specials.isMultilingual()) {
            return;
        }
        java.util.Set<Integer> given = new java.util.HashSet<>();
        for (int id : langIds) {
            given.add(id);
        }
        for (int i = 0; i < specials.languageCount(); i++) {
            if (!given.contains(specials.firstLanguage() + i)) {
                throw new ModelFormatException(file.file().resolveSibling("config.json") + ": lang_ids lack token "
                        + (specials.firstLanguage() + i) + "; a model of " + specials.vocabSize() + " tokens has "
                        + specials.languageCount() + " languages from " + specials.firstLanguage());
            }
        }
    }

    private static void expect(Ct2VocabularyFile.Tokens file, int id, String spelling) {
        List<String> spelled = file.spellings();
        if (id < spelled.size() && !spelled.get(id).equals(spelling)) {
            throw error(file, "token " + id + " is " + UntrustedText.quoted(spelled.get(id)) + ", expected " + spelling
                    + " for a model of this vocabulary size");
        }
    }

    private static ModelFormatException error(Ct2VocabularyFile.Tokens file, String message) {
        return new ModelFormatException(file.file() + ": " + message);
    }
}
