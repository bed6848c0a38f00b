package dev.dictum.gpu.cpu;

import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Multi-head attention on the CPU, one (sequence, head) pair per task. Two paths:
 * <ul>
 * <li>many queries (the encoder, a decoder prompt): K of the head is transposed once into a
 * contiguous {@code [headDim, keys]} panel so that four query rows' scores are computed as
 * broadcast-FMAs along the keys (no horizontal reductions), then softmax and P·V four rows at a
 * time. Scores for a row block live in a small per-thread buffer, never as a full T×S matrix.</li>
 * <li>a few queries (decoding one token): plain dot products against the cache rows.</li>
 * </ul>
 * Both read key/value row j of a task at {@code rowAt[j] + h * hd}: strided rows ({@link #run}) and rows
 * through a beam's row table ({@link #runRows}) take the same arithmetic, so equal rows give equal bits.
 * No vector value crosses a call of this class's (softmax goes through arrays, lane sums are written out):
 * C2 may decline any call of ours, and a declined call with a vector argument boxes it
 * ({@code VectorMath.expShifted}'s comment; KernelAllocationTest).
 */
final class CpuAttention {
    private static final VectorSpecies<Float> S = CpuVectors.F;
    private static final int L = S.length();
    private static final int ROWS = 4;
    /** Below this many queries a transposed panel costs more than it saves. */
    private static final int BLOCKED_MIN_QUERIES = 8;

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private static final class Scratch {
        float[] kt = new float[0];
        float[] scores = new float[0];
        int[] rowAt = new int[0];
        /** A block's rows: how many keys each sees, and 1 / its softmax sum. */
        final int[] visible = new int[ROWS];
        final float[] inv = new float[ROWS];

        int[] rowAt(int n) {
            if (rowAt.length < n) {
                rowAt = new int[n];
            }
            return rowAt;
        }

        float[] kt(int n) {
            if (kt.length < n) {
                kt = new float[n];
            }
            return kt;
        }

        float[] scores(int n) {
            if (scores.length < n) {
                scores = new float[n];
            }
            return scores;
        }
    }

    private CpuAttention() {
    }

    /** Where a sequence's key/value rows start: {@code rowAt[j]} for its first {@code keys} rows. */
    @FunctionalInterface
    private interface KeyRows {
        void fill(int b, int keys, int[] rowAt);
    }

    /** Backend.attention: sequence b's rows start at {@code kvOffset + b * kvBatchStride}, {@code kvStride} apart. */
    static void run(float[] q, int qStride, int batch, int queries, float[] k, float[] v, int kvOffset,
            int kvBatchStride, int kvStride, int[] keys, int heads, int hd, boolean causal, float[] out) {
        run(q, qStride, batch, queries, k, v, keys, heads, hd, causal, out, (b, n, rowAt) -> {
            int base = kvOffset + b * kvBatchStride;
            for (int j = 0; j < n; j++) {
                rowAt[j] = base + j * kvStride;
            }
        });
    }

    /**
     * Backend.attentionRows: sequence b's row j is row {@code rows[b * rowsStride + j]} (an int's bits) of
     * k and v, {@code kvStride} apart.
     */
    static void runRows(float[] q, int qStride, int batch, int queries, float[] k, float[] v, int kvStride,
            float[] rows, int rowsStride, int[] keys, int heads, int hd, boolean causal, float[] out) {
        int width = heads * hd; // every head's channels of a row
        run(q, qStride, batch, queries, k, v, keys, heads, hd, causal, out, (b, n, rowAt) -> {
            for (int j = 0; j < n; j++) {
                int row = Float.floatToRawIntBits(rows[b * rowsStride + j]);
                long start = (long) row * kvStride;
                if (row < 0 || start + width > Math.min(k.length, v.length)) {
                    throw new IllegalArgumentException("sequence " + b + " key " + j + " names row " + row
                            + ", outside the cache");
                }
                rowAt[j] = (int) start;
            }
        });
    }

    private static void run(float[] q, int qStride, int batch, int queries, float[] k, float[] v, int[] keys,
            int heads, int hd, boolean causal, float[] out, KeyRows keyRows) {
        int outStride = heads * hd;
        float scale = (float) (1.0 / Math.sqrt(hd));
        int tasks = batch * heads;
        int causal01 = causal ? 1 : 0;
        long work = (long) tasks * queries * keys[0] * hd;
        CpuThreads.RangeBody body = (lo, hi) -> {
            Scratch s = SCRATCH.get();
            for (int t = lo; t < hi; t++) {
                int b = t / heads;
                int h = t % heads;
                int[] rowAt = s.rowAt(keys[b]);
                keyRows.fill(b, keys[b], rowAt);
                int qBase = b * queries * qStride + h * hd;
                int oBase = b * queries * outStride + h * hd;
                if (queries >= BLOCKED_MIN_QUERIES) {
                    blocked(s, q, qBase, qStride, queries, k, v, rowAt, h * hd, keys[b], hd, causal01, scale, out,
                            oBase, outStride);
                } else {
                    direct(s, q, qBase, qStride, queries, k, v, rowAt, h * hd, keys[b], hd, causal01, scale, out,
                            oBase, outStride);
                }
            }
        };
        if (work < 1 << 16) {
            body.run(0, tasks);
        } else {
            CpuThreads.forRange(tasks, body);
        }
    }

    /**
     * Keys query i sees; {@code causal} 1 or 0. Arithmetic, not a branch: in {@link #blocked}, a branch one
     * of whose sides the profile had not seen yet (a last block of fewer than four rows) made C2 throw the
     * compiled kernel away mid-call and finish it in the interpreter, where every vector is an object
     * (session 7's JFR of the app: "unstable_if" traps in blocked at its per-row branches, and 17 % of the
     * samples of 90 s of dictating in the Vector API's Java fallbacks).
     */
    private static int visible(int keys, int queries, int i, int causal) {
        return keys - causal * (queries - 1 - i);
    }

    private static void direct(Scratch s, float[] q, int qBase, int qStride, int queries, float[] k, float[] v,
            int[] rowAt, int head, int keys, int hd, int causal, float scale, float[] out, int oBase,
            int outStride) {
        float[] p = s.scores(keys);
        int bound = S.loopBound(hd);
        for (int i = 0; i < queries; i++) {
            int n = visible(keys, queries, i, causal);
            int qi = qBase + i * qStride;
            float max = Float.NEGATIVE_INFINITY;
            for (int j = 0; j < n; j++) {
                int kj = rowAt[j] + head;
                FloatVector acc = FloatVector.zero(S);
                int d = 0;
                for (; d < bound; d += L) {
                    acc = FloatVector.fromArray(S, q, qi + d).fma(FloatVector.fromArray(S, k, kj + d), acc);
                }
                // the lanes' sum in CpuVectors.sum's order, written out: no vector crosses a call here
                // (VectorMath.expShifted says why; KernelAllocationTest holds it)
                if (L > 8) {
                    acc = acc.add(acc.rearrange(CpuVectors.SWAP8));
                }
                if (L > 4) {
                    acc = acc.add(acc.rearrange(CpuVectors.SWAP4));
                }
                acc = acc.add(acc.rearrange(CpuVectors.SWAP2));
                float dot = acc.add(acc.rearrange(CpuVectors.SWAP1)).lane(0);
                for (; d < hd; d++) {
                    dot += q[qi + d] * k[kj + d];
                }
                p[j] = dot * scale;
                max = Math.max(max, p[j]);
            }
            float inv = 1f / VectorMath.expShiftedSum(p, 0, n, max);
            CpuCrossAttention.weightedSum(p, n, inv, v, rowAt, head, hd, out, oBase + i * outStride);
        }
    }

    /**
     * Many queries: K transposed once into {@code kt}, then per block of four query rows their scores, softmax
     * and P·V.
     *
     * <p>Why the two inner loops carry eight accumulators: an FMA's result is ready four cycles after it issues
     * and a core issues two a cycle, so a chain of FMAs into one accumulator runs at an eighth of the FMA
     * ports; the four rows' four chains of the loops until session 13 kept them half idle at either width. Two
     * vectors per row (of keys for the scores, of channels for P·V) give eight chains: 8 accumulators + 2 loads
     * + 4 broadcasts = 14 registers, inside AVX2's 16. Each output still sums over the same index in the same
     * order, so Whisper's heads (64 channels: whole pairs of vectors at 256 and 512 bits) get the bits of the
     * four-chain loops. Measured under load: the toy-en encoder per 30 s window −17 % at 256 bits, −8 % to level at
     * 512 (docs/benchmarks.md, "Attention: eight FMA chains").
     *
     * <p>Why the loops stay in this method and not in helpers: with them here, this method's back-edges make
     * C2 compile it first, inlining {@link #softmaxRows} and its exponentials. With the loops moved to helper
     * methods, {@link #softmaxRow} got compiled on its own first (from a profile of short rows, where the
     * vector exponential's call site looked cold, so it stayed out of line) and was then "already compiled
     * into a big method" for this one: 1.6 MB of vector boxes per 150-query call (KernelAllocationTest after
     * CpuBackendOpsTest in one JVM, session 13).
     */
    private static void blocked(Scratch s, float[] q, int qBase, int qStride, int queries, float[] k, float[] v,
            int[] rowAt, int head, int keys, int hd, int causal, float scale, float[] out, int oBase,
            int outStride) {
        int padded = (keys + 2 * L - 1) / (2 * L) * (2 * L); // scores are made two vectors of keys at a time
        float[] kt = s.kt(hd * padded);
        for (int j = 0; j < keys; j++) {
            int kj = rowAt[j] + head;
            for (int d = 0; d < hd; d++) {
                kt[d * padded + j] = k[kj + d];
            }
        }
        for (int d = 0; d < hd; d++) {
            for (int j = keys; j < padded; j++) {
                kt[d * padded + j] = 0f;
            }
        }
        float[] sc = s.scores(ROWS * padded);
        for (int i0 = 0; i0 < queries; i0 += ROWS) {
            int rows = Math.min(ROWS, queries - i0);
            // A last block of fewer than four rows repeats its last row (r1..r3 clamped), and the repeats
            // write what that row writes to that row: the same values, without a branch per row (visible).
            int r1 = Math.min(1, rows - 1);
            int r2 = Math.min(2, rows - 1);
            int r3 = Math.min(3, rows - 1);
            int q0 = qBase + i0 * qStride;
            int q1 = qBase + (i0 + r1) * qStride;
            int q2 = qBase + (i0 + r2) * qStride;
            int q3 = qBase + (i0 + r3) * qStride;
            int last = visible(keys, queries, i0 + rows - 1, causal);
            for (int j = 0; j < last; j += 2 * L) {
                FloatVector a0 = FloatVector.zero(S);
                FloatVector a1 = a0;
                FloatVector a2 = a0;
                FloatVector a3 = a0;
                FloatVector b0 = a0;
                FloatVector b1 = a0;
                FloatVector b2 = a0;
                FloatVector b3 = a0;
                for (int d = 0; d < hd; d++) {
                    int at = d * padded + j;
                    FloatVector k0 = FloatVector.fromArray(S, kt, at);
                    FloatVector k1 = FloatVector.fromArray(S, kt, at + L);
                    FloatVector x = FloatVector.broadcast(S, q[q0 + d]);
                    a0 = k0.fma(x, a0);
                    b0 = k1.fma(x, b0);
                    x = FloatVector.broadcast(S, q[q1 + d]);
                    a1 = k0.fma(x, a1);
                    b1 = k1.fma(x, b1);
                    x = FloatVector.broadcast(S, q[q2 + d]);
                    a2 = k0.fma(x, a2);
                    b2 = k1.fma(x, b2);
                    x = FloatVector.broadcast(S, q[q3 + d]);
                    a3 = k0.fma(x, a3);
                    b3 = k1.fma(x, b3);
                }
                a0.mul(scale).intoArray(sc, j);
                b0.mul(scale).intoArray(sc, j + L);
                a1.mul(scale).intoArray(sc, padded + j);
                b1.mul(scale).intoArray(sc, padded + j + L);
                a2.mul(scale).intoArray(sc, 2 * padded + j);
                b2.mul(scale).intoArray(sc, 2 * padded + j + L);
                a3.mul(scale).intoArray(sc, 3 * padded + j);
                b3.mul(scale).intoArray(sc, 3 * padded + j + L);
            }
            s.visible[0] = visible(keys, queries, i0, causal);
            s.visible[1] = visible(keys, queries, i0 + r1, causal);
            s.visible[2] = visible(keys, queries, i0 + r2, causal);
            s.visible[3] = visible(keys, queries, i0 + r3, causal);
            softmaxRows(sc, padded, s.visible, last, s.inv);
            int o = oBase + i0 * outStride;
            int d = 0;
            for (; d + 2 * L <= hd; d += 2 * L) {
                FloatVector a0 = FloatVector.zero(S);
                FloatVector a1 = a0;
                FloatVector a2 = a0;
                FloatVector a3 = a0;
                FloatVector b0 = a0;
                FloatVector b1 = a0;
                FloatVector b2 = a0;
                FloatVector b3 = a0;
                for (int j = 0; j < last; j++) {
                    int at = rowAt[j] + head + d;
                    FloatVector v0 = FloatVector.fromArray(S, v, at);
                    FloatVector v1 = FloatVector.fromArray(S, v, at + L);
                    FloatVector w = FloatVector.broadcast(S, sc[j]);
                    a0 = v0.fma(w, a0);
                    b0 = v1.fma(w, b0);
                    w = FloatVector.broadcast(S, sc[padded + j]);
                    a1 = v0.fma(w, a1);
                    b1 = v1.fma(w, b1);
                    w = FloatVector.broadcast(S, sc[2 * padded + j]);
                    a2 = v0.fma(w, a2);
                    b2 = v1.fma(w, b2);
                    w = FloatVector.broadcast(S, sc[3 * padded + j]);
                    a3 = v0.fma(w, a3);
                    b3 = v1.fma(w, b3);
                }
                a0.mul(s.inv[0]).intoArray(out, o + d);
                b0.mul(s.inv[0]).intoArray(out, o + d + L);
                a1.mul(s.inv[1]).intoArray(out, o + d + r1 * outStride);
                b1.mul(s.inv[1]).intoArray(out, o + d + r1 * outStride + L);
                a2.mul(s.inv[2]).intoArray(out, o + d + r2 * outStride);
                b2.mul(s.inv[2]).intoArray(out, o + d + r2 * outStride + L);
                a3.mul(s.inv[3]).intoArray(out, o + d + r3 * outStride);
                b3.mul(s.inv[3]).intoArray(out, o + d + r3 * outStride + L);
            }
            // Channels past the last pair of vectors, one at a time: only heads that are not a multiple of two
            // vectors (Whisper's are not); a third vector loop here would only grow what C2 must compile.
            for (; d < hd; d++) {
                for (int r = 0; r < rows; r++) {
                    float acc = 0f;
                    for (int j = 0; j < last; j++) {
                        acc += sc[r * padded + j] * v[rowAt[j] + head + d];
                    }
                    out[oBase + (i0 + r) * outStride + d] = acc * s.inv[r];
                }
            }
        }
    }

    /**
     * The block's four rows through {@link #softmaxRow}, from one call site: with four (one per row), C2
     * inlined four copies of the exponentials into {@code blocked}, ran out of its node budget
     * (NodeCountInliningCutoff) inside one of them and called {@code VectorMath.exp(FloatVector)} out of
     * line, boxing two vectors per call: 22 KB a 150-query call in about half the JVMs (LogCompilation,
     * session 9), the rest at ~200 bytes.
     */
    private static void softmaxRows(float[] sc, int padded, int[] visible, int last, float[] inv) {
        for (int r = 0; r < ROWS; r++) {
            inv[r] = softmaxRow(sc, r * padded, visible[r], last);
        }
    }

    /**
     * Exponentiates the first n scores of a row in place (shifted by their max), zeroes the masked
     * ones up to {@code last} so they add nothing to P·V, and returns 1 / (sum of the exponentials).
     */
    private static float softmaxRow(float[] sc, int base, int n, int last) {
        float max = Float.NEGATIVE_INFINITY;
        for (int j = 0; j < n; j++) {
            max = Math.max(max, sc[base + j]);
        }
        float inv = 1f / VectorMath.expShiftedSum(sc, base, n, max);
        // Arrays.fill, not a loop here: only causal rows mask, and the warm-up runs none (the encoder is not
        // causal), so C2 compiled this loop as never entered, with a trap; the first decoder prompt of 8+
        // tokens in a real dictation hit it and threw away the compiled blocked (softmaxRow is inlined
        // there): that pass ran in tier-3 code, 0.9-2 s instead of 0.3 (session 14, -Xlog:deoptimization).
        Arrays.fill(sc, base + n, base + last, 0f);
        return inv;
    }
}
