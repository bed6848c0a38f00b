package dev.dictum.whisper.decode;

import dev.dictum.whisper.tokenizer.SpecialTokens;
import java.util.Arrays;

/**
 * The tokens fed before sampling starts (OpenAI's {@code DecodingTask._get_initial_tokens}):
 * {@code [startofprev, prompt tail] + sot sequence + [prefix]}.
 *
 * @param tokens        everything fed before the first sampled token
 * @param sotIndex      where sot is: the no-speech probability is read from the logits there
 * @param languageIndex where the language token is (sotIndex + 1), or -1 for English-only models
 */
public record InitialTokens(int[] tokens, int sotIndex, int languageIndex) {

    /** OpenAI's sample_begin: tokens at or after this index were sampled. */
    public int sampleBegin() {
        return tokens.length;
    }

    @Override
    public int[] tokens() {
        return tokens.clone();
    }

    int[] raw() {
        return tokens;
    }

    /**
     * @param languageToken the language token (a placeholder when it is about to be detected);
     *                      ignored for English-only models, whose sot sequence is {@code [sot]} only
     * @param sampleLen     the effective sample_len (the prefix keeps at most n_ctx / 2 - sampleLen
     *                      tokens, with Python's {@code [-0:]} meaning all of them)
     */
    public static InitialTokens build(SpecialTokens sp, int languageToken, Task task, boolean withoutTimestamps,
            int[] prompt, int[] prefix, int nTextCtx, int sampleLen) {
        int[] sotSequence;
        if (sp.isMultilingual()) {
            sotSequence = new int[] {sp.sot(), languageToken, task.token(sp)};
        } else {
            sotSequence = new int[] {sp.sot()};
        }
        if (withoutTimestamps) {
            sotSequence = Arrays.copyOf(sotSequence, sotSequence.length + 1);
            sotSequence[sotSequence.length - 1] = sp.noTimestamps();
        }
        int[] tokens = sotSequence;
        if (prefix != null && prefix.length > 0) {
            tokens = concat(tokens, PythonSlices.fromEnd(prefix, nTextCtx / 2 - sampleLen));
        }
        int sotIndex = 0;
        if (prompt != null && prompt.length > 0) {
            int[] tail = PythonSlices.fromEnd(prompt, nTextCtx / 2 - 1);
            sotIndex = 1 + tail.length;
            tokens = concat(concat(new int[] {sp.startOfPrev()}, tail), tokens);
        }
        return new InitialTokens(tokens, sotIndex, sp.isMultilingual() ? sotIndex + 1 : -1);
    }

    private static int[] concat(int[] a, int[] b) {
        int[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
