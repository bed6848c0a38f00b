package dev.dictum.whisper.decode;

/**
 * The token sequences being decoded side by side (OpenAI's {@code tokens} tensor of shape
 * [n_group, length], plus {@code sum_logprobs}), in buffers sized once for n_text_ctx so that the
 * per-token loop appends without allocating. Every row has the same length, as in OpenAI (finished
 * greedy rows keep appending eot). {@link #logprobs} holds the log-probability of each sampled
 * token, for per-token confidences.
 */
final class SequenceBatch {
    int[][] tokens;
    float[][] logprobs;
    final double[] sumLogprobs;
    private int[][] spareTokens;
    private float[][] spareLogprobs;
    private final double[] spareSums;
    private int length;

    SequenceBatch(int size, int capacity, int[] initial) {
        tokens = new int[size][capacity];
        logprobs = new float[size][capacity];
        spareTokens = new int[size][capacity];
        spareLogprobs = new float[size][capacity];
        sumLogprobs = new double[size];
        spareSums = new double[size];
        for (int[] row : tokens) {
            System.arraycopy(initial, 0, row, 0, initial.length);
        }
        length = initial.length;
    }

    int size() {
        return tokens.length;
    }

    int length() {
        return length;
    }

    int last(int row) {
        return tokens[row][length - 1];
    }

    /** Appends one token per row: {@code next[row]} with its log-probability. */
    void append(int[] next, float[] nextLogprobs) {
        for (int r = 0; r < tokens.length; r++) {
            tokens[r][length] = next[r];
            logprobs[r][length] = nextLogprobs[r];
        }
        length++;
    }

    /**
     * Beam search's regrouping: row i becomes old row {@code sourceOf[i]} followed by
     * {@code next[i]}, with running sum {@code sums[i]}.
     */
    void regroup(int[] sourceOf, int[] next, float[] nextLogprobs, double[] sums) {
        for (int r = 0; r < tokens.length; r++) {
            int s = sourceOf[r];
            System.arraycopy(tokens[s], 0, spareTokens[r], 0, length);
            System.arraycopy(logprobs[s], 0, spareLogprobs[r], 0, length);
            spareTokens[r][length] = next[r];
            spareLogprobs[r][length] = nextLogprobs[r];
            spareSums[r] = sums[r];
        }
        int[][] t = tokens;
        tokens = spareTokens;
        spareTokens = t;
        float[][] l = logprobs;
        logprobs = spareLogprobs;
        spareLogprobs = l;
        System.arraycopy(spareSums, 0, sumLogprobs, 0, sumLogprobs.length);
        length++;
    }

    boolean sameRow(int a, int b) {
        return java.util.Arrays.equals(tokens[a], 0, length, tokens[b], 0, length);
    }
}
