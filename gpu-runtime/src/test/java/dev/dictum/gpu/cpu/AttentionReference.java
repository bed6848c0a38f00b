package dev.dictum.gpu.cpu;

import java.util.function.IntToDoubleFunction;

/**
 * Softmax attention in float64: the one reference that the CPU's and the GPU's attention tests
 * (strided, row tables, cross, f16 caches) compare their outputs against. Each caller says how its
 * layout reaches a query's, a key's and a value's elements; the arithmetic is here once.
 */
public final class AttentionReference {
    private AttentionReference() {
    }

    /** Element {@code e} of key or value {@code j} of the head being computed, as the op stores it. */
    @FunctionalInterface
    public interface KeyValue {
        double at(int j, int e);
    }

    /**
     * One query of one head: {@code out[outAt + e] = Σ_j softmax_j(q·k_j / √headDim) v_j[e]} over keys
     * {@code 0..n-1}, the maximum score subtracted before the exponentials.
     */
    public static void attend(IntToDoubleFunction q, int n, KeyValue k, KeyValue v, int headDim, double[] out,
            int outAt) {
        double[] s = new double[n];
        double max = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < n; j++) {
            double dot = 0;
            for (int e = 0; e < headDim; e++) {
                dot += q.applyAsDouble(e) * k.at(j, e);
            }
            s[j] = dot / Math.sqrt(headDim);
            max = Math.max(max, s[j]);
        }
        double sum = 0;
        for (int j = 0; j < n; j++) {
            s[j] = Math.exp(s[j] - max);
            sum += s[j];
        }
        for (int e = 0; e < headDim; e++) {
            double o = 0;
            for (int j = 0; j < n; j++) {
                o += s[j] * v.at(j, e);
            }
            out[outAt + e] = o / sum;
        }
    }
}
