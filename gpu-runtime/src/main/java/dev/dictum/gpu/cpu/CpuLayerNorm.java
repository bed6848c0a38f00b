package dev.dictum.gpu.cpu;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/** LayerNorm over rows (eps 1e-5, as every Whisper checkpoint uses), vectorised. */
final class CpuLayerNorm {
    private static final VectorSpecies<Float> S = CpuVectors.F;
    static final float EPS = 1e-5f;

    private CpuLayerNorm() {
    }

    static void run(float[] x, int rows, int cols, float[] gain, float[] bias, float[] out) {
        if ((long) rows * cols > 1 << 16) {
            CpuThreads.forRange(rows, (lo, hi) -> rows(x, lo, hi, cols, gain, bias, out));
        } else {
            rows(x, 0, rows, cols, gain, bias, out);
        }
    }

    private static void rows(float[] x, int lo, int hi, int cols, float[] gain, float[] bias, float[] out) {
        int bound = S.loopBound(cols);
        for (int r = lo; r < hi; r++) {
            int base = r * cols;
            // Two passes (mean, then centred variance) rather than E[x²]−E[x]²: no cancellation when
            // the mean is large next to the spread, which residual streams do have.
            FloatVector acc = FloatVector.zero(S);
            int c = 0;
            for (; c < bound; c += S.length()) {
                acc = acc.add(FloatVector.fromArray(S, x, base + c));
            }
            float sum = CpuVectors.sum(acc);
            for (; c < cols; c++) {
                sum += x[base + c];
            }
            float mean = sum / cols;
            FloatVector m = FloatVector.broadcast(S, mean);
            acc = FloatVector.zero(S);
            for (c = 0; c < bound; c += S.length()) {
                FloatVector d = FloatVector.fromArray(S, x, base + c).sub(m);
                acc = d.fma(d, acc);
            }
            float var = CpuVectors.sum(acc);
            for (; c < cols; c++) {
                float d = x[base + c] - mean;
                var += d * d;
            }
            float inv = (float) (1.0 / Math.sqrt(var / cols + EPS));
            FloatVector iv = FloatVector.broadcast(S, inv);
            for (c = 0; c < bound; c += S.length()) {
                FloatVector d = FloatVector.fromArray(S, x, base + c).sub(m).mul(iv);
                d.fma(FloatVector.fromArray(S, gain, c), FloatVector.fromArray(S, bias, c)).intoArray(out, base + c);
            }
            for (; c < cols; c++) {
                out[base + c] = (x[base + c] - mean) * inv * gain[c] + bias[c];
            }
        }
    }
}
