package dev.dictum.gpu.cpu;

import java.util.SplittableRandom;

/**
 * A random Backend.attentionRows problem as beam search makes one (issue 22 item 4): a cache of
 * {@code batch} sequences' rows laid out position-major (row {@code p * batch + b}), and row tables
 * in which every position of every sequence names some sequence's row of that position, so that
 * sequences share history as after reorders. Also its float64 reference and the same rows gathered
 * into each sequence's own contiguous block, for strided {@code attention}. Shared by the CPU and GPU
 * op tests.
 */
public final class RowAttentionProblem {
    public final int batch;
    public final int queries;
    public final int heads;
    public final int headDim;
    public final boolean causal;
    /** Floats between cache rows (the row width, plus {@code kvPad}: unaligned rows when odd). */
    public final int kvStride;
    public final int qStride;
    /** The cache's rows: {@code batch * ctx}. */
    public final int slots;
    /** Ints per sequence in {@link #rows}. */
    public final int rowsStride;
    public final float[] q;
    public final float[] k;
    public final float[] v;
    /** Sequence b's row for key j at {@code b * rowsStride + j}. */
    public final int[] rows;
    public final int[] keys;

    public RowAttentionProblem(int batch, int queries, int keys, int heads, int headDim, boolean causal, int kvPad,
            long seed) {
        this.batch = batch;
        this.queries = queries;
        this.heads = heads;
        this.headDim = headDim;
        this.causal = causal;
        int d = heads * headDim;
        this.kvStride = d + kvPad;
        this.qStride = d + 3;
        int ctx = keys + 2; // the cache holds more positions than are valid
        this.slots = batch * ctx;
        this.rowsStride = ctx + 1;
        SplittableRandom rnd = new SplittableRandom(seed);
        this.q = TestWeights.activations(batch * queries * qStride, rnd.nextLong());
        this.k = TestWeights.activations(slots * kvStride, rnd.nextLong());
        this.v = TestWeights.activations(slots * kvStride, rnd.nextLong());
        this.keys = new int[batch];
        this.rows = new int[batch * rowsStride];
        for (int b = 0; b < batch; b++) {
            this.keys[b] = Math.max(causal ? queries : 1, keys - rnd.nextInt(Math.min(3, keys)));
            for (int j = 0; j < rowsStride; j++) {
                rows[b * rowsStride + j] = j < ctx ? j * batch + rnd.nextInt(batch) : -1; // past ctx: never read
            }
        }
    }

    /** The row tables as int bit patterns in floats (as Backend.uploadInts stores them). */
    public float[] rowBits() {
        float[] bits = new float[rows.length];
        for (int i = 0; i < rows.length; i++) {
            bits[i] = Float.intBitsToFloat(rows[i]);
        }
        return bits;
    }

    /** Floats between sequences in {@link #gather}'s blocks. */
    public int gatheredStride() {
        return (slots / batch) * kvStride;
    }

    /** Each sequence's rows, in table order, copied into a block of its own ({@link #gatheredStride} apart). */
    public float[] gather(float[] cache) {
        float[] out = new float[batch * gatheredStride()];
        for (int b = 0; b < batch; b++) {
            for (int j = 0; j < keys[b]; j++) {
                System.arraycopy(cache, rows[b * rowsStride + j] * kvStride, out, b * gatheredStride() + j * kvStride,
                        kvStride);
            }
        }
        return out;
    }

    public int outputFloats() {
        return batch * queries * heads * headDim;
    }

    /** The attention output in double, reading every key and value through the tables. */
    public double[] reference() {
        int d = heads * headDim;
        double[] out = new double[outputFloats()];
        for (int b = 0; b < batch; b++) {
            for (int h = 0; h < heads; h++) {
                for (int i = 0; i < queries; i++) {
                    int qAt = (b * queries + i) * qStride + h * headDim;
                    int tableAt = b * rowsStride;
                    int head = h * headDim;
                    AttentionReference.attend(e -> q[qAt + e], causal ? keys[b] - queries + i + 1 : keys[b],
                            (j, e) -> k[rows[tableAt + j] * kvStride + head + e],
                            (j, e) -> v[rows[tableAt + j] * kvStride + head + e], headDim, out,
                            (b * queries + i) * d + head);
                }
            }
        }
        return out;
    }

    /** ‖got − want‖ / ‖want‖; infinite where an output is NaN (never written). */
    public static double relErr(float[] got, double[] want) {
        double num = 0;
        double den = 0;
        for (int i = 0; i < want.length; i++) {
            double diff = got[i] - want[i];
            num += diff * diff;
            den += want[i] * want[i];
        }
        double r = Math.sqrt(num / den);
        return Double.isNaN(r) ? Double.POSITIVE_INFINITY : r;
    }
}
