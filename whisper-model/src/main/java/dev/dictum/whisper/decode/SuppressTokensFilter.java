package dev.dictum.whisper.decode;

import dev.dictum.whisper.tokenizer.SpecialTokens;
import java.util.TreeSet;

/** OpenAI's {@code SuppressTokens}: a fixed set of ids is -inf at every step. */
public final class SuppressTokensFilter implements LogitFilter {
    private final int[] suppressed;

    public SuppressTokensFilter(int[] suppressed) {
        this.suppressed = suppressed.clone();
    }

    /**
     * OpenAI's {@code DecodingTask._get_suppress_tokens}: the requested ids, with -1 replaced by the
     * model's non-speech symbols, plus transcribe, translate, sot, startofprev, startoflm and
     * nospeech, which are never sampled (the no-speech probability is read separately). Sorted,
     * without duplicates.
     *
     * @param requested       the option's ids (null or empty: the specials only)
     * @param nonSpeechTokens what -1 stands for (the model's suppress_tokens)
     */
    public static int[] resolve(int[] requested, int[] nonSpeechTokens, SpecialTokens sp) {
        TreeSet<Integer> ids = new TreeSet<>();
        boolean nonSpeech = false;
        if (requested != null) {
            for (int t : requested) {
                if (t == DecodingOptions.NON_SPEECH_SYMBOLS) {
                    nonSpeech = true;
                } else if (t >= 0) {
                    ids.add(t);
                }
            }
        }
        if (nonSpeech) {
            for (int t : nonSpeechTokens) {
                ids.add(t);
            }
        }
        ids.add(sp.transcribe());
        ids.add(sp.translate());
        ids.add(sp.sot());
        ids.add(sp.startOfPrev());
        ids.add(sp.startOfLm());
        ids.add(sp.noSpeech());
        return ids.stream().mapToInt(Integer::intValue).toArray();
    }

    @Override
    public void apply(float[] logits, int[] tokens, int length) {
        for (int t : suppressed) {
            logits[t] = LogitMath.MASKED;
        }
    }
}
