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
// for head size 64), read in 16-byte pieces (the 4 row groups of a wave read the same addresses).
// Scores of 8 keys: each lane dots its W channels of 4 queries with 8 keys (1 LDS float per 4 FMAs);
// the sums over the 8 slices are a reduce-scatter (xor 4, 2, 1: 28 shuffles per chunk, no select),
// leaving lane s with the 4 queries' full scores for key s (gfx1100, short of VGPRs: key pair by key
// pair, 48 shuffles and 16 selects). Scores in log2 units (Q scaled by log2(e) / sqrt(hd) once), so the
// online softmax takes v_exp_f32 alone per probability; it runs in registers on every wave (a max over
// the 8 lanes of a row group, by v_med3). P.V takes each key's 4 probabilities by shuffle and reads V
// like K. gfx1010 (hipcc 5.2): 161 VGPRs, no scratch; per 8-key chunk 516 FMAs and 80 other VALU
// instructions on a tile every query sees whole (scripts/gfx1010_isa_count.py; 265 before session 12).
// Why: the former AMD body staged Q, K, V and the score tile in 29 KiB of LDS (4 waves per SIMD on
// gfx1010), read one LDS float per FMA, and ran the softmax on one wave of four between barriers.
#define DG_PC 8 // keys per score chunk (one per channel slice after the reduce-scatter)

// dot[r] = this lane's W channels of query r (qr) times those of one K row in LDS (row: its first).
template <int MAXD, int R>
__device__ __forceinline__ void dg_portable_dot(const float (&qr)[R][MAXD / 8], const float* row, float (&dot)[R]) {
    constexpr int W = MAXD / 8;
    float kv[W];
    const float4* kr4 = reinterpret_cast<const float4*>(row);
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
        dot[r] = acc;
    }
}

// gfx1100's scores of a chunk's 8 keys (rows k8[0 .. 7 MAXD], from this lane's channel slice on): p[r] =
// query r's dot product with key s (s = lane % 8), key pair by key pair (t, t + 4) with few partial sums
// live, as LLVM 15 allows gfx1100 only 128 VGPRs (the reduce-scatter of the other targets spills there):
// the xor-4 step keeps key t + 4 (s / 4) on each side (each side dots its own row order, so no select
// there), the xor-2 and xor-1 steps complete that key's sum on 4 lanes, and lane s keeps key s
// (t = s % 4). 12 shuffles and adds and 4 selects per query.
template <int MAXD, int R>
__device__ __forceinline__ void dg_portable_scores_pairwise(const float (&qr)[R][MAXD / 8], const float* k8, int s,
                                                            float (&p)[R]) {
#pragma unroll 1
    for (int t = 0; t < 4; t++) {
        const int b4 = (s >> 2) & 1;
        float mine[R], theirs[R];
        dg_portable_dot<MAXD, R>(qr, k8 + (t + 4 * b4) * MAXD, mine);
        dg_portable_dot<MAXD, R>(qr, k8 + (t + 4 * (1 - b4)) * MAXD, theirs);
#pragma unroll
        for (int r = 0; r < R; r++) {
            float sum = mine[r] + DG_SHFL_XOR(theirs[r], 4);
            sum += DG_SHFL_XOR(sum, 2);
            sum += DG_SHFL_XOR(sum, 1);
            if ((s & 3) == t) {
                p[r] = sum;
            }
        }
    }
}

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
    // Scores in log2 units, as attention_mma64.cuh: the scale 1 / sqrt(hd) and log2(e) (in double, then
    // float) go into Q once, so a probability is 2^(score - max), one v_exp_f32 (dg_exp2).
    const float scaleLog2 = dg_score_scale_log2(hd);

    float qr[R][W];
    float o[R][W];
    float m[R], l[R];
#pragma unroll
    for (int r = 0; r < R; r++) {
        const int qi = i0 + rowInBlock + r;
#pragma unroll
        for (int i = 0; i < W; i++) {
            const int d = d0 + i;
            qr[r][i] = qi < queries && d < hd ? q[(long long) qi * qStride + d] * scaleLog2 : 0.0f;
            o[r][i] = 0.0f;
        }
        m[r] = DG_SCORE_FLOOR;
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

        // Whether every query of the block sees every key of the tile (uniform; all but the last tile of
        // the encoder's): then no score is masked, which saves 9 VALU per chunk on gfx1010.
        const bool full = kt + DG_AK <= (causal ? nk - queries + i0 + 1 : nk) && i0 + DG_AQ <= queries;
#pragma unroll 1
        for (int c = 0; c < DG_AK / KS / DG_PC; c++) {
            const int kc = kpar * (DG_AK / KS) + c * DG_PC; // the chunk's first key within the tile
            const int key = kt + kc + s;
            float p[R]; // lane s: the R queries' scores of key kc + s
#if !defined(__gfx1100__)
            // Summed over the 8 channel slices by a reduce-scatter: lane s dots the keys in its own order,
            // index i = key i ^ s, so that at every step the indices it keeps come first and those it hands
            // over are the ones its partner keeps (key (i + h) ^ s = i ^ (s ^ h) for h = 4, 2, 1 and i < h):
            // xor 4 hands over indices 4..7, xor 2 indices 2, 3, xor 1 index 1, and lane s ends with key s.
            // 7 shuffles and adds per query, no select (pairwise: 12, 12 and 4 selects). Written out here:
            // as a function, LLVM 15 gave the kernel 34 VGPRs more on gfx1010 (5 waves per SIMD, not 6).
            {
                const float* kc0 = ks + kc * MAXD + d0;
                float part[4][R]; // indices 0..3 (over 2 slices), then 0..1 (over 4)
                float got[4][R];  // the xor-4 partner's indices 4..7
#pragma unroll
                for (int i = 7; i >= 0; i--) {
                    float dot[R];
                    dg_portable_dot<MAXD, R>(qr, kc0 + (i ^ s) * MAXD, dot);
#pragma unroll
                    for (int r = 0; r < R; r++) {
                        if (i >= 4) {
                            got[i - 4][r] = DG_SHFL_XOR(dot[r], 4);
                        } else {
                            part[i][r] = dot[r] + got[i][r];
                        }
                    }
                }
#pragma unroll
                for (int r = 0; r < R; r++) {
                    part[0][r] += DG_SHFL_XOR(part[2][r], 2);
                    part[1][r] += DG_SHFL_XOR(part[3][r], 2);
                    p[r] = part[0][r] + DG_SHFL_XOR(part[1][r], 1);
                }
            }
#else
            dg_portable_scores_pairwise<MAXD, R>(qr, ks + kc * MAXD + d0, s, p);
#endif
            if (!full) {
#pragma unroll
                for (int r = 0; r < R; r++) {
                    const bool seen = qFirst + r < queries && key < (causal ? visFirst + r : nk);
                    p[r] = seen ? p[r] : -DG_INF;
                }
            }
            // Online softmax of the chunk, row by row over the 8 lanes of the row group.
#pragma unroll
            for (int r = 0; r < R; r++) {
                float cm = p[r];
                cm = dg_score_max(cm, DG_SHFL_XOR(cm, 1));
                cm = dg_score_max(cm, DG_SHFL_XOR(cm, 2));
                cm = dg_score_max(cm, DG_SHFL_XOR(cm, 4));
                const float mn = dg_score_max(m[r], cm);
                const float alpha = dg_exp2(m[r] - mn); // 0 on the row's first visible key (o, l are 0)
                p[r] = dg_exp2(p[r] - mn);
                l[r] = l[r] * alpha + p[r]; // this lane's part of the row sum (its keys only)
                m[r] = mn;
                if (alpha != 1.0f) { // the row's max did not move: nothing to rescale (most chunks)
#pragma unroll
                    for (int i = 0; i < W; i++) {
                        o[r][i] *= alpha;
                    }
                }
            }
            // O += P . V over the chunk's 8 keys (one V row in flight at a time). Unrolled, each key's
            // shuffle address and V row are immediate offsets (gfx1010: 3 VALU per key fewer);
            // LLVM 15 holds gfx1100 to 128 VGPRs, where the unrolled loop spills: a loop there.
#if defined(__gfx1100__)
#pragma unroll 1
#else
#pragma unroll
#endif
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
            const float f = dg_softmax_weight2(m[r], x);
            const float f2 = dg_softmax_weight2(pm, x);
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
