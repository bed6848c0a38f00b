package dev.dictum.whisper.decode;

import java.util.Map;

/** Helpers to write crafted logits and to compute what the decoder should make of them. */
public final class Logits {
    private Logits() {
    }

    /** Sets each token's logit to ln(p): the probabilities then hold up to the e^-30 background. */
    static void probabilities(float[] out, Map<Integer, Double> p) {
        p.forEach((t, v) -> out[t] = (float) Math.log(v));
    }

    static float[] row(int vocab, float base) {
        float[] r = new float[vocab];
        java.util.Arrays.fill(r, base);
        return r;
    }

    /** The product's argmax (first index of the maximum), for tests outside decode that pick tokens greedily. */
    public static int argmax(float[] row) {
        return LogitMath.argmax(row);
    }

    /** log_softmax(row)[token] in double: the expected per-token log-probability. */
    static double logprob(float[] row, int token) {
        return row[token] - LogitMath.logSumExp(row, 0, row.length);
    }
}
