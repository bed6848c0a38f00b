package dev.dictum.whisper.tokenizer;

import java.util.List;
import java.util.TreeSet;

/**
 * The token lists OpenAI's decoder suppresses by default, computed from the tokenizer for formats
 * that do not ship them (ggml, CTranslate2, a Hugging Face directory without generation_config.json).
 */
public final class SuppressTokens {
    /** Speaker tags, brackets and music marks: suppressed when they are one token, alone or after a space. */
    private static final List<String> SYMBOLS = symbols();

    /**
     * Music symbols from U+2640..U+267F. Their 3-byte UTF-8 forms share the first two bytes, so if
     * one is split into several tokens, suppressing its first token is still safe.
     */
    private static final String MUSIC = "♩♪♫♬♭♮♯";

    private SuppressTokens() {
    }

    private static List<String> symbols() {
        List<String> s = new java.util.ArrayList<>();
        "\"#()*+/:;<=>@[\\]^_`{|}~「」『』".codePoints().forEach(c -> s.add(Character.toString(c)));
        s.addAll(List.of("<<", ">>", "<<<", ">>>", "--", "---", "-(", "-[", "('", "(\"", "((", "))", "(((",
                ")))", "[[", "]]", "{{", "}}", "♪♪", "♪♪♪"));
        return List.copyOf(s);
    }

    /**
     * OpenAI's {@code suppress_tokens="-1"}: the non-speech tokens plus sot, translate, transcribe,
     * startoflm, startofprev and nospeech, sorted. Equals the suppress_tokens in the Hugging Face
     * generation configs of the released models.
     */
    public static int[] openAiDefault(BpeTokenizer tokenizer, SpecialTokens specials) {
        TreeSet<Integer> ids = nonSpeech(tokenizer);
        ids.add(specials.sot());
        ids.add(specials.translate());
        ids.add(specials.transcribe());
        ids.add(specials.startOfLm());
        ids.add(specials.startOfPrev());
        ids.add(specials.noSpeech());
        return ids.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * OpenAI's begin-suppress list: the token of a lone space and eot, so that the first sampled
     * token is neither blank nor the end.
     */
    public static int[] openAiBeginSuppress(BpeTokenizer tokenizer, SpecialTokens specials) {
        return new int[] {tokenizer.encode(" ")[0], specials.eot()};
    }

    /** OpenAI's non_speech_tokens: text tokens that would only start annotations, not speech. */
    static TreeSet<Integer> nonSpeech(BpeTokenizer tokenizer) {
        TreeSet<Integer> ids = new TreeSet<>();
        // Hyphens and apostrophes stay allowed inside words, but not at the start of one.
        ids.add(tokenizer.encode(" -")[0]);
        ids.add(tokenizer.encode(" '")[0]);
        List<String> candidates = new java.util.ArrayList<>(SYMBOLS);
        MUSIC.codePoints().forEach(c -> candidates.add(Character.toString(c)));
        for (String symbol : candidates) {
            boolean music = symbol.length() == 1 && MUSIC.contains(symbol);
            for (String text : List.of(symbol, " " + symbol)) {
                int[] tokens = tokenizer.encode(text);
                if (tokens.length == 1 || music) {
                    ids.add(tokens[0]);
                }
            }
        }
        return ids;
    }
}
