package dev.dictum.gpu.cpu;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Decoder cross-attention on the CPU: a few query rows against one window's 1500 keys, which the
 * decoder keeps transposed. Scores for 4·L keys at a time stay in registers while the head's
 * channels stream past (broadcast FMAs, no horizontal sums); softmax with {@link VectorMath#expShiftedSum};
 * then P·V along the head's channels. One task per (row, head).
 */
final class CpuCrossAttention {
    private static final VectorSpecies<Float> S = CpuVectors.F;
    private static final int L = CpuVectors.L;
    private static final ThreadLocal<float[][]> SCORES = ThreadLocal.withInitial(() -> new float[1][0]);

    private CpuCrossAttention() {
    }

    static void run(float[] q, int rows, float[] kT, int keysStride, float[] v, int keys, int heads, int hd,
            float[] out) {
        int d = heads * hd;
        float scale = (float) (1.0 / Math.sqrt(hd));
        int tasks = rows * heads;
        CpuThreads.RangeBody body = (lo, hi) -> {
            float[] s = scores(keysStride + 4 * L);
            for (int t = lo; t < hi; t++) {
                int r = t / heads;
                int h = t % heads;
                one(q, r * d + h * hd, kT, h * hd, keysStride, v, h * hd, d, keys, hd, scale, s, out, r * d + h * hd);
            }
        };
        if ((long) tasks * keys * hd < 1 << 15) {
            body.run(0, tasks);
        } else {
            CpuThreads.forRange(tasks, body);
        }
    }

    private static float[] scores(int n) {
        float[][] holder = SCORES.get();
        if (holder[0].length < n) {
            holder[0] = new float[n];
        }
        return holder[0];
    }

    private static void one(float[] q, int qo, float[] kT, int c0, int ks, float[] v, int vo, int vStride, int keys,
            int hd, float scale, float[] s, float[] out, int oo) {
        int blocks = keys / (4 * L) * (4 * L);
        int j = 0;
        for (; j < blocks; j += 4 * L) {
            FloatVector a0 = FloatVector.zero(S);
            FloatVector a1 = a0;
            FloatVector a2 = a0;
            FloatVector a3 = a0;
            for (int c = 0; c < hd; c++) {
                FloatVector qc = FloatVector.broadcast(S, q[qo + c]);
                int row = (c0 + c) * ks + j;
                a0 = FloatVector.fromArray(S, kT, row).fma(qc, a0);
                a1 = FloatVector.fromArray(S, kT, row + L).fma(qc, a1);
                a2 = FloatVector.fromArray(S, kT, row + 2 * L).fma(qc, a2);
                a3 = FloatVector.fromArray(S, kT, row + 3 * L).fma(qc, a3);
            }
            a0.mul(scale).intoArray(s, j);
            a1.mul(scale).intoArray(s, j + L);
            a2.mul(scale).intoArray(s, j + 2 * L);
            a3.mul(scale).intoArray(s, j + 3 * L);
        }
        for (; j < keys; j++) {
            float acc = 0f;
            for (int c = 0; c < hd; c++) {
                acc = Math.fma(q[qo + c], kT[(c0 + c) * ks + j], acc);
            }
            s[j] = acc * scale;
        }
        float max = Float.NEGATIVE_INFINITY;
        for (int i = 0; i < keys; i++) {
            max = Math.max(max, s[i]);
        }
        float total = VectorMath.expShiftedSum(s, 0, keys, max);
        weightedSum(s, keys, 1f / total, v, vo, vStride, hd, out, oo);
    }

    private static final ThreadLocal<int[][]> ROWS = ThreadLocal.withInitial(() -> new int[1][0]);

    /** The weighted sum below over rows {@code vStride} apart (cross-attention's values). */
    static void weightedSum(float[] p, int keys, float inv, float[] v, int vo, int vStride, int hd, float[] out,
            int oo) {
        int[][] holder = ROWS.get();
        if (holder[0].length < keys) {
            holder[0] = new int[keys];
        }
        int[] rowAt = holder[0];
        for (int k = 0; k < keys; k++) {
            rowAt[k] = k * vStride;
        }
        weightedSum(p, keys, inv, v, rowAt, vo, hd, out, oo);
    }

    /**
     * out[oo + c] = inv · Σ_k p[k] · v[rowAt[k] + vo + c] for c < hd: P·V for one query row, in one
     * pass over the keys with the row's accumulators in registers (no read-modify-write of out per
     * key). Key k's row starts at {@code rowAt[k]}: strided rows and a beam's row table alike.
     * Whisper's heads are 64 wide: 8 vectors at 256 bits (8 accumulators + 1 broadcast fit the
     * 16 ymm registers; before issue 21 this took two passes of 4 over the keys), 4 at 512 bits.
     */
    static void weightedSum(float[] p, int keys, float inv, float[] v, int[] rowAt, int vo, int hd, float[] out,
            int oo) {
        int c = 0;
        if (hd == 8 * L) {
            FloatVector o0 = FloatVector.zero(S), o1 = o0, o2 = o0, o3 = o0, o4 = o0, o5 = o0, o6 = o0, o7 = o0;
            for (int k = 0; k < keys; k++) {
                FloatVector pk = FloatVector.broadcast(S, p[k]);
                int row = rowAt[k] + vo;
                o0 = FloatVector.fromArray(S, v, row).fma(pk, o0);
                o1 = FloatVector.fromArray(S, v, row + L).fma(pk, o1);
                o2 = FloatVector.fromArray(S, v, row + 2 * L).fma(pk, o2);
                o3 = FloatVector.fromArray(S, v, row + 3 * L).fma(pk, o3);
                o4 = FloatVector.fromArray(S, v, row + 4 * L).fma(pk, o4);
                o5 = FloatVector.fromArray(S, v, row + 5 * L).fma(pk, o5);
                o6 = FloatVector.fromArray(S, v, row + 6 * L).fma(pk, o6);
                o7 = FloatVector.fromArray(S, v, row + 7 * L).fma(pk, o7);
            }
            o0.mul(inv).intoArray(out, oo);
            o1.mul(inv).intoArray(out, oo + L);
            o2.mul(inv).intoArray(out, oo + 2 * L);
            o3.mul(inv).intoArray(out, oo + 3 * L);
            o4.mul(inv).intoArray(out, oo + 4 * L);
            o5.mul(inv).intoArray(out, oo + 5 * L);
            o6.mul(inv).intoArray(out, oo + 6 * L);
            o7.mul(inv).intoArray(out, oo + 7 * L);
            return;
        }
        int c4 = hd / (4 * L) * (4 * L);
        for (; c < c4; c += 4 * L) { // four independent FMA chains per key
            FloatVector o0 = FloatVector.zero(S);
            FloatVector o1 = o0;
            FloatVector o2 = o0;
            FloatVector o3 = o0;
            for (int k = 0; k < keys; k++) {
                FloatVector pk = FloatVector.broadcast(S, p[k]);
                int row = rowAt[k] + vo + c;
                o0 = FloatVector.fromArray(S, v, row).fma(pk, o0);
                o1 = FloatVector.fromArray(S, v, row + L).fma(pk, o1);
                o2 = FloatVector.fromArray(S, v, row + 2 * L).fma(pk, o2);
                o3 = FloatVector.fromArray(S, v, row + 3 * L).fma(pk, o3);
            }
            o0.mul(inv).intoArray(out, oo + c);
            o1.mul(inv).intoArray(out, oo + c + L);
            o2.mul(inv).intoArray(out, oo + c + 2 * L);
            o3.mul(inv).intoArray(out, oo + c + 3 * L);
        }
        int cBound = S.loopBound(hd);
        for (; c < cBound; c += L) {
            FloatVector acc = FloatVector.zero(S);
            for (int k = 0; k < keys; k++) {
                acc = FloatVector.fromArray(S, v, rowAt[k] + vo + c).fma(FloatVector.broadcast(S, p[k]), acc);
            }
            acc.mul(inv).intoArray(out, oo + c);
        }
        for (; c < hd; c++) {
            float acc = 0f;
            for (int k = 0; k < keys; k++) {
                acc = Math.fma(p[k], v[rowAt[k] + vo + c], acc);
            }
            out[oo + c] = acc * inv;
        }
    }
}
