package dev.dictum.whisper.decode;

import java.util.Arrays;

/** Python's list slicing where OpenAI's behaviour depends on its corner cases. */
final class PythonSlices {
    private PythonSlices() {
    }

    /**
     * {@code a[-n:]} exactly as Python evaluates it: the last n elements for n > 0, but the WHOLE
     * list for n == 0 (because -0 == 0), and {@code a[|n|:]} for n < 0. OpenAI's prefix truncation
     * {@code prefix_tokens[-(n_ctx // 2 - sample_len):]} keeps everything with the default sample_len
     * for exactly this reason.
     */
    static int[] fromEnd(int[] a, int n) {
        int start;
        if (n > 0) {
            start = Math.max(0, a.length - n);
        } else {
            start = Math.min(a.length, -n);
        }
        return Arrays.copyOfRange(a, start, a.length);
    }
}
