// attention_f32's portable f32 body (every AMD target; on NVIDIA the head sizes 65..128, and every
// head size in the test-only module attention_portable): see attention.cu. Included by both of its
// branches.
#pragma once
#include "attention_softmax.cuh"

// Built for every AMD target (gfx10/gfx11 have no matrix cores) and, as the test-only module
// attention_portable, for NVIDIA, so that the op tests run this very body against the CPU on a
// CUDA device (no AMD card is available to the project; the HIP stand-in runs the NVIDIA body).
//
// Layout (same launch as the NVIDIA body: 32 queries, 4 waves of 32): wave w takes queries
// 16 (w / 2) .. + 15 of the block and keys 16 (w % 2) .. + 15 of every 32-key tile, with its own
// online softmax; the two waves of a query half merge (max, sum, output) at the end. Lane = (row
// group g = lane / 8: 4 queries; channel slice s = lane % 8: W = MAXD / 8 channels). Q (4 x W) and
// the output (4 x W) stay in registers; only K and V go through LDS (32 keys x MAXD each, 16 KiB
// for head size 64), read as whole rows that all lanes share (conflict-free 16-byte reads).
// Scores of 8 keys: each lane dots its W channels of 4 queries with 8 keys (1 LDS float per 4 FMAs);
// the sums over the 8 slices go key pair by key pair (xor 4, then 2 and 1: 48 shuffles per chunk,
// few partial sums live), leaving lane s with the 4 queries' full scores for key s. Softmax in
// registers on every wave (a max over the 8 lanes of a row group); P.V takes each key's 4
// probabilities by shuffle and reads V like K. gfx1010 (hipcc 5.2): 142 VGPRs, no scratch.
// Why: the former AMD body staged Q, K, V and the score tile in 29 KiB of LDS (4 waves per SIMD on
// gfx1010), read one LDS float per FMA, and ran the softmax on one wave of four between barriers.
#define DG_PC 8 // keys per score chunk (one per channel slice after the reduce-scatter)

// MAXD: head sizes up to it (64: every Whisper; 128). R: queries per lane (4 for 64; 2 for 128, so
// that Q and the output take the same registers): a wave takes 4 R queries; with R = 4 two waves
// share them (half of every key tile each) and merge, with R = 2 one wave walks every key alone.
template <int MAXD, int R>
__device__ __forceinline__ void dg_attention_portable(const float* q, int qStride, int queries, const float* kb,
                                                      const float* vb, int kvStride, int nk, int hd, int causal,
                                                      float* out, int outStride, int i0) {
    extern __shared__ __align__(16) float dg_psm[];
    constexpr int W = MAXD / 8;   // channels per lane
    constexpr int QW = 4 * R;     // queries per wave
    constexpr int KS = QW / 8;    // waves sharing those queries, each with 32 / KS keys of a tile
    static_assert(KS == 1 || KS == 2, "4 waves over 32 queries");
    float* ks = dg_psm;         // [DG_AK][MAXD], zero beyond hd and beyond the visible keys
    float* vs = ks + DG_AK * MAXD;
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int wave = tid >> 5;
    const int kpar = wave % KS;
    const int g = lane >> 3;
    const int s = lane & 7;
    const int rowInBlock = (wave / KS) * QW + R * g; // first of this lane's R queries, within the block
    const int d0 = s * W;
    const float scale = (float) (1.0 / sqrt((double) hd)); // as the CPU: in double, then float

    float qr[R][W];
    float o[R][W];
    float m[R], l[R];
#pragma unroll
    for (int r = 0; r < R; r++) {
        const int qi = i0 + rowInBlock + r;
#pragma unroll
        for (int i = 0; i < W; i++) {
            const int d = d0 + i;
            qr[r][i] = qi < queries && d < hd ? q[(long long) qi * qStride + d] : 0.0f;
            o[r][i] = 0.0f;
        }
        m[r] = -DG_INF;
        l[r] = 0.0f;
    }
    // Keys query i0 + rowInBlock + r sees: visFirst + r (causal) or nk, none past the last query.
    const int qFirst = i0 + rowInBlock;
    const int visFirst = causal ? nk - queries + qFirst + 1 : nk;
    const int lastQuery = min(i0 + DG_AQ, queries) - 1;
    const int visibleMax = causal ? min(nk, nk - queries + lastQuery + 1) : nk;
    const bool vec = dg_rows16(kb, vb, hd, kvStride);

    for (int kt = 0; kt < visibleMax; kt += DG_AK) {
        // Stage the tile's keys and values, 4 channels per thread and step (not unrolled: Q and the
        // output hold 64 registers meanwhile, and other waves hide the loads' latency).
#pragma unroll 1
        for (int e = tid; e < DG_AK * (MAXD / 4); e += DG_AT) {
            const int j = e / (MAXD / 4);
            const int d = (e - j * (MAXD / 4)) * 4;
            const int key = kt + j;
            float4 x = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            float4 y = x;
            if (key < visibleMax && d < hd) {
                const float* kr = kb + (long long) key * kvStride + d;
                const float* vr = vb + (long long) key * kvStride + d;
                if (vec) {
                    x = *reinterpret_cast<const float4*>(kr);
                    y = *reinterpret_cast<const float4*>(vr);
                } else {
                    x.x = kr[0];
                    y.x = vr[0];
                    if (d + 1 < hd) { x.y = kr[1]; y.y = vr[1]; }
                    if (d + 2 < hd) { x.z = kr[2]; y.z = vr[2]; }
                    if (d + 3 < hd) { x.w = kr[3]; y.w = vr[3]; }
                }
            }
            *reinterpret_cast<float4*>(ks + j * MAXD + d) = x;
            *reinterpret_cast<float4*>(vs + j * MAXD + d) = y;
        }
        __syncthreads();

#pragma unroll 1
        for (int c = 0; c < DG_AK / KS / DG_PC; c++) {
            const int kc = kpar * (DG_AK / KS) + c * DG_PC; // the chunk's first key within the tile
            // Partial scores over this lane's W channels, R queries x 8 keys, summed over the 8 channel
            // slices key pair by key pair (t, t + 4), so that few partial sums are live: the xor-4 step
            // keeps key t + 4 (s / 4) on each side, the xor-2 and xor-1 steps complete that key's sums
            // on 4 lanes, and lane s keeps key s (t = s % 4).
            const bool b4 = (s & 4) != 0;
            const int key = kt + kc + s;
            float p[R];
#pragma unroll 1
            for (int t = 0; t < 4; t++) {
                // This lane's partial sums of the key it keeps (t + 4 b4) and of the one its xor-4
                // partner keeps: each side reads its own row order, so no select is needed.
                float part[2][R];
#pragma unroll
                for (int hk = 0; hk < 2; hk++) {
                    float kv[W];
                    const int row = kc + t + 4 * (hk == 0 ? (int) b4 : (int) !b4);
                    const float4* kr4 = reinterpret_cast<const float4*>(ks + row * MAXD + d0);
#pragma unroll
                    for (int i4 = 0; i4 < W / 4; i4++) {
                        const float4 t4 = kr4[i4];
                        kv[4 * i4] = t4.x;
                        kv[4 * i4 + 1] = t4.y;
                        kv[4 * i4 + 2] = t4.z;
                        kv[4 * i4 + 3] = t4.w;
                    }
#pragma unroll
                    for (int r = 0; r < R; r++) {
                        float acc = 0.0f;
#pragma unroll
                        for (int i = 0; i < W; i++) {
                            acc = fmaf(qr[r][i], kv[i], acc);
                        }
                        part[hk][r] = acc;
                    }
                }
#pragma unroll
                for (int r = 0; r < R; r++) {
                    float sum = part[0][r] + DG_SHFL_XOR(part[1][r], 4);
                    sum += DG_SHFL_XOR(sum, 2);
                    sum += DG_SHFL_XOR(sum, 1);
                    if ((s & 3) == t) {
                        p[r] = sum;
                    }
                }
            }
#pragma unroll
            for (int r = 0; r < R; r++) {
                const bool seen = qFirst + r < queries && key < (causal ? visFirst + r : nk);
                p[r] = seen ? p[r] * scale : -DG_INF;
            }
            // Online softmax of the chunk, row by row over the 8 lanes of the row group.
#pragma unroll
            for (int r = 0; r < R; r++) {
                float cm = p[r];
                cm = fmaxf(cm, DG_SHFL_XOR(cm, 1));
                cm = fmaxf(cm, DG_SHFL_XOR(cm, 2));
                cm = fmaxf(cm, DG_SHFL_XOR(cm, 4));
                const float mn = fmaxf(m[r], cm);
                const float alpha = dg_softmax_rescale(m[r], mn);
                p[r] = dg_softmax_prob(p[r], mn);
                l[r] = l[r] * alpha + p[r]; // this lane's part of the row sum (its keys only)
                m[r] = mn;
                if (alpha != 1.0f) { // no row of the group got a new max: nothing to rescale (most chunks)
#pragma unroll
                    for (int i = 0; i < W; i++) {
                        o[r][i] *= alpha;
                    }
                }
            }
            // O += P . V over the chunk's 8 keys (one at a time: one V row in flight, fewer registers).
#pragma unroll 1
            for (int jj = 0; jj < DG_PC; jj++) {
                float pj[R];
#pragma unroll
                for (int r = 0; r < R; r++) {
                    pj[r] = DG_SHFL(p[r], (lane & ~7) | jj);
                }
                const float4* vr4 = reinterpret_cast<const float4*>(vs + (kc + jj) * MAXD + d0);
#pragma unroll
                for (int i4 = 0; i4 < W / 4; i4++) {
                    const float4 t4 = vr4[i4];
                    const float vv[4] = {t4.x, t4.y, t4.z, t4.w};
#pragma unroll
                    for (int r = 0; r < R; r++) {
#pragma unroll
                        for (int e = 0; e < 4; e++) {
                            o[r][4 * i4 + e] = fmaf(pj[r], vv[e], o[r][4 * i4 + e]);
                        }
                    }
                }
            }
        }
        __syncthreads(); // the next tile overwrites ks and vs
    }

#pragma unroll
    for (int r = 0; r < R; r++) {
        l[r] += DG_SHFL_XOR(l[r], 1);
        l[r] += DG_SHFL_XOR(l[r], 2);
        l[r] += DG_SHFL_XOR(l[r], 4);
    }
    // With KS = 2 the two waves of each query half merge: the odd wave hands (max, sum, output) over
    // in LDS (free: every wave passed the loop's last barrier); with KS = 1 the partner is empty.
    float* mo = dg_psm;            // [32][MAXD]
    float* mm = mo + DG_AQ * MAXD; // [32]
    float* ml = mm + DG_AQ;        // [32]
    if (KS == 2 && kpar == 1) {
#pragma unroll
        for (int r = 0; r < R; r++) {
#pragma unroll
            for (int i = 0; i < W; i++) {
                mo[(rowInBlock + r) * MAXD + d0 + i] = o[r][i];
            }
            if (s == 0) {
                mm[rowInBlock + r] = m[r];
                ml[rowInBlock + r] = l[r];
            }
        }
    }
    if (KS == 2) {
        __syncthreads();
    }
    if (kpar == 0) {
#pragma unroll
        for (int r = 0; r < R; r++) {
            const int qi = i0 + rowInBlock + r;
            const float pm = KS == 2 ? mm[rowInBlock + r] : -DG_INF;
            const float x = fmaxf(m[r], pm);
            const float f = dg_softmax_weight(m[r], x);
            const float f2 = dg_softmax_weight(pm, x);
            const float L = l[r] * f + (KS == 2 ? ml[rowInBlock + r] * f2 : 0.0f);
            const float inv = dg_softmax_inverse(L);
            if (qi < queries) {
#pragma unroll
                for (int i = 0; i < W; i++) {
                    const int d = d0 + i;
                    if (d < hd) {
                        const float other = KS == 2 ? mo[(rowInBlock + r) * MAXD + d] * f2 : 0.0f;
                        out[(long long) qi * outStride + d] = (o[r][i] * f + other) * inv;
                    }
                }
            }
        }
    }
}
