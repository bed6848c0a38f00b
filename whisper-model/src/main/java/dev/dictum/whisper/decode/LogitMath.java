package dev.dictum.whisper.decode;

import dev.dictum.gpu.cpu.VectorMath;

/** Allocation-free reductions over a row of logits (sums in double, for stability). */
final class LogitMath {
    static final float MASKED = Float.NEGATIVE_INFINITY;

    private LogitMath() {
    }

    /**
     * log(sum(exp(x[from..to)))), -inf when every entry is -inf or the range is empty. The exponentials
     * are the CPU kernels' vector exp (relative error ~1e-7, the same bits in every JIT tier): with
     * {@code Math.exp} in double a vocabulary row took ~250 µs, five of them most of a beam-5 step's host
     * time.
     */
    static double logSumExp(float[] x, int from, int to) {
        float max = max(x, from, to);
        if (max == MASKED) {
            return Double.NEGATIVE_INFINITY;
        }
        return max + Math.log(VectorMath.sumExpShifted(x, from, to - from, max));
    }

    static float max(float[] x, int from, int to) {
        return VectorMath.max(x, from, Math.max(0, to - from)); // -inf (MASKED) for an empty range
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
