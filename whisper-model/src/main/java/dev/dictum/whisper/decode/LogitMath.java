package dev.dictum.whisper.decode;

/** Allocation-free reductions over a row of logits (doubles inside, for stable sums). */
final class LogitMath {
    static final float MASKED = Float.NEGATIVE_INFINITY;

    private LogitMath() {
    }

    /** log(sum(exp(x[from..to)))), -inf when every entry is -inf or the range is empty. */
    static double logSumExp(float[] x, int from, int to) {
        float max = max(x, from, to);
        if (max == MASKED) {
            return Double.NEGATIVE_INFINITY;
        }
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += Math.exp((double) x[i] - max);
        }
        return max + Math.log(sum);
    }

    static float max(float[] x, int from, int to) {
        float max = MASKED;
        for (int i = from; i < to; i++) {
            if (x[i] > max) {
                max = x[i];
            }
        }
        return max;
    }

    /** The first index of the maximum, as torch.argmax returns. */
    static int argmax(float[] x) {
        int best = 0;
        for (int i = 1; i < x.length; i++) {
            if (x[i] > x[best]) {
                best = i;
            }
        }
        return best;
    }

    /** softmax(x)[index] over the whole row. */
    static double softmaxAt(float[] x, int index) {
        return Math.exp(x[index] - logSumExp(x, 0, x.length));
    }

    static void mask(float[] x, int from, int to) {
        for (int i = Math.max(0, from); i < Math.min(x.length, to); i++) {
            x[i] = MASKED;
        }
    }
}
