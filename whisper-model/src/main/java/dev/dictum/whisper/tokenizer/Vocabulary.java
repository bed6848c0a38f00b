package dev.dictum.whisper.tokenizer;

import java.util.List;

/**
 * The text tokens of a model (ids below {@link SpecialTokens#eot()}, their bytes; the id is the
 * BPE rank) with the special-token ids and the language codes in token order.
 */
public final class Vocabulary {
    private final byte[][] tokens;
    private final SpecialTokens specials;
    private final List<String> languageCodes;

    public Vocabulary(List<byte[]> tokens, SpecialTokens specials, List<String> languageCodes) {
        if (tokens.size() != specials.eot()) {
            throw new IllegalArgumentException("vocabulary has " + tokens.size() + " text tokens, the model expects "
                    + specials.eot());
        }
        if (languageCodes.size() != specials.languageCount()) {
            throw new IllegalArgumentException(languageCodes.size() + " language codes for "
                    + specials.languageCount() + " language tokens");
        }
        this.tokens = tokens.stream().map(byte[]::clone).toArray(byte[][]::new);
        this.specials = specials;
        this.languageCodes = List.copyOf(languageCodes);
    }

    public SpecialTokens specials() {
        return specials;
    }

    public int textTokenCount() {
        return tokens.length;
    }

    /** The bytes of a text token (not a copy: do not modify). */
    public byte[] bytes(int id) {
        return tokens[id];
    }

    /** Language codes in token order: code i is token {@code specials().firstLanguage() + i}. */
    public List<String> languageCodes() {
        return languageCodes;
    }

    public int languageToken(String code) {
        int i = languageCodes.indexOf(code);
        if (i < 0) {
            throw new IllegalArgumentException("unknown language '" + code + "'");
        }
        return specials.firstLanguage() + i;
    }

    public String languageCode(int token) {
        return languageCodes.get(token - specials.firstLanguage());
    }
}
