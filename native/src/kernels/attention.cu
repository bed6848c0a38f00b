// Multi-head scaled dot-product attention, flash-style, as Backend.attention: the encoder's
// 1500 x 1500 self-attention and the decoder's KV-cached self-attention (queries 1..n, causal).
//
// A block takes 32 queries of one (sequence b, head h) and walks the visible keys tile by tile with
// an online softmax: per query a running max m and sum l; when a tile raises the max, the output
// accumulated so far is rescaled by exp(m_old - m_new). The full score matrix never exists.
//
// One source, two bodies chosen per target at build time (same launch geometry, same ABI):
// - NVIDIA (nvcc): tensor cores (dg_mma.cuh), FlashAttention-2 style. Warp w owns 16 query rows
//   ((w % 2) * 16 ..) and the warp pair w / 2 takes the first or second 16 keys of every 32-key
//   chunk. Q sits in registers as f16 hi/lo fragments; each pair stages its 16 keys (hi/lo) and
//   its 16 values transposed (hi/lo) in the launch's dynamic shared memory. Scores S = Q.K^T (3
//   mmas per product: hi.hi, hi.lo, lo.hi), online softmax in registers (row max and sum over the
//   4 lanes that share a row), P.V from the score registers (3 mmas again); at the end the two
//   pairs' (max, sum, output) are merged through shared memory. Scores and output stay f32-like
//   (dg_mma.cuh on the split), so the CPU backend's limits hold.
// - AMD (hipcc; gfx10 has no matrix cores): f32. The Q tile, one 32-key K/V tile and the 32 x 32
//   score tile in shared memory; output rows in registers: thread t owns query t % 32 and channels
//   t / 32 + 4 i.
#include "dictum_gpu.h"

#define DG_AQ 32         // queries per block
#define DG_AK 32         // keys per tile
#define DG_AT 128        // threads per block
#define DG_AMAXD 128     // largest head size

#if !defined(__HIP__)
#include "dg_mma.cuh"

#define DG_PK 16 // keys per warp pair per chunk
#define DG_VLD (DG_PK + 8) // halves per transposed-value row: 12 words, conflict-free fragment loads
// At least 4 blocks (16 warps) per SM: caps registers at 128 per thread, which the head-size-64
// path (every Whisper) fits without spills; only head sizes 65..128 pay spills.
#define DG_AMMA_MIN_BLOCKS 4

template <int MAXD>
__device__ __forceinline__ void dg_attention_mma(const float* q, int qStride, int queries, const float* kb,
                                                 const float* vb, int kvStride, int nk, int hd, int causal,
                                                 float* out, int outStride, int b, int h, int i0) {
    extern __shared__ __align__(16) unsigned char dg_smem[];
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int pair = warp >> 1;
    const int g = lane >> 2;
    const int t = lane & 3;
    const int hdp = (hd + 7) & ~7; // head size padded to the mma k-step (the padding reads as zeros)
    const int kld = hdp + 8;       // halves per staged key row
    const int nks = hdp / 8;       // k-steps over the head dimension, and output n-blocks
    const float scale = (float) (1.0 / sqrt((double) hd)); // as the CPU: in double, then float

    __half* base = reinterpret_cast<__half*>(dg_smem) + pair * (2 * DG_PK * kld + 2 * hdp * DG_VLD);
    __half* khi = base;
    __half* klo = khi + DG_PK * kld;
    __half* vhi = klo + DG_PK * kld; // [hdp][DG_VLD]: values transposed, keys along the row
    __half* vlo = vhi + hdp * DG_VLD;

    const int rowBase = (warp & 1) * 16;
    const int qi0 = i0 + rowBase + g; // this lane's two query rows
    const int qi1 = qi0 + 8;

    // Q fragments (hi/lo) of the warp's 16 rows, scaled by nothing (the scale applies to the dot).
    unsigned qh[MAXD / 8][2], ql[MAXD / 8][2];
#pragma unroll
    for (int ks = 0; ks < MAXD / 8; ks++) {
        if (ks < nks) {
            const int d = ks * 8 + 2 * t;
            float x00 = 0.0f, x01 = 0.0f, x10 = 0.0f, x11 = 0.0f;
            if (qi0 < queries) {
                const float* qr = q + (long long) qi0 * qStride;
                x00 = d < hd ? qr[d] : 0.0f;
                x01 = d + 1 < hd ? qr[d + 1] : 0.0f;
            }
            if (qi1 < queries) {
                const float* qr = q + (long long) qi1 * qStride;
                x10 = d < hd ? qr[d] : 0.0f;
                x11 = d + 1 < hd ? qr[d + 1] : 0.0f;
            }
            dg_split2(x00, x01, qh[ks][0], ql[ks][0]);
            dg_split2(x10, x11, qh[ks][1], ql[ks][1]);
        }
    }

    float o[MAXD / 8][4];
#pragma unroll
    for (int nd = 0; nd < MAXD / 8; nd++) {
#pragma unroll
        for (int e = 0; e < 4; e++) {
            o[nd][e] = 0.0f;
        }
    }
    float m0 = -DG_INF, m1 = -DG_INF; // running max of rows qi0, qi1
    float l0 = 0.0f, l1 = 0.0f;       // this lane's part of the running sums

    const int vis0 = causal ? nk - queries + qi0 + 1 : nk;
    const int vis1 = causal ? nk - queries + qi1 + 1 : nk;
    const int lastQuery = min(i0 + DG_AQ, queries) - 1;
    const int visibleMax = causal ? min(nk, nk - queries + lastQuery + 1) : nk;
    const int lt = tid & 63;

    // 16-byte loads of K and V rows when every row start is 16-byte aligned (Whisper: always).
    const bool vec = (hd & 3) == 0 && (kvStride & 3) == 0 && (reinterpret_cast<unsigned long long>(kb) & 15) == 0
                     && (reinterpret_cast<unsigned long long>(vb) & 15) == 0;
    const int q4 = hdp / 4;

    for (int kc = 0; kc < visibleMax; kc += 2 * DG_PK) {
        const int kbase = kc + pair * DG_PK;
        if (vec) {
            for (int e = lt; e < DG_PK * q4; e += 64) {
                const int j = e / q4;
                const int d = (e - j * q4) * 4;
                const int key = kbase + j;
                const bool in = key < visibleMax && d < hd;
                const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
                const float4 x = in ? *reinterpret_cast<const float4*>(kb + (long long) key * kvStride + d) : zero;
                const float4 y = in ? *reinterpret_cast<const float4*>(vb + (long long) key * kvStride + d) : zero;
                unsigned h01, l01, h23, l23;
                dg_split2(x.x, x.y, h01, l01);
                dg_split2(x.z, x.w, h23, l23);
                *reinterpret_cast<uint2*>(khi + j * kld + d) = make_uint2(h01, h23);
                *reinterpret_cast<uint2*>(klo + j * kld + d) = make_uint2(l01, l23);
                const float yv[4] = {y.x, y.y, y.z, y.w};
#pragma unroll
                for (int c = 0; c < 4; c++) {
                    __half hi, lo;
                    dg_split(yv[c], hi, lo);
                    vhi[(d + c) * DG_VLD + j] = hi;
                    vlo[(d + c) * DG_VLD + j] = lo;
                }
            }
        } else {
            for (int e = lt; e < DG_PK * hdp; e += 64) {
                const int j = e / hdp;
                const int d = e - j * hdp;
                const int key = kbase + j;
                const bool in = key < visibleMax && d < hd;
                __half hi, lo;
                dg_split(in ? kb[(long long) key * kvStride + d] : 0.0f, hi, lo);
                khi[j * kld + d] = hi;
                klo[j * kld + d] = lo;
                dg_split(in ? vb[(long long) key * kvStride + d] : 0.0f, hi, lo);
                vhi[d * DG_VLD + j] = hi;
                vlo[d * DG_VLD + j] = lo;
            }
        }
        __syncthreads();

        // S = Q . K^T for this warp's 16 rows and the pair's 16 keys (two 16 x 8 blocks).
        float s[2][4];
#pragma unroll
        for (int nb = 0; nb < 2; nb++) {
#pragma unroll
            for (int e = 0; e < 4; e++) {
                s[nb][e] = 0.0f;
            }
#pragma unroll
            for (int ks = 0; ks < MAXD / 8; ks++) {
                if (ks < nks) {
                    const int off = (nb * 8 + g) * kld + ks * 8 + 2 * t;
                    const unsigned bh = dg_ld32(khi + off);
                    const unsigned bl = dg_ld32(klo + off);
                    dg_mma_16x8x8(s[nb], ql[ks][0], ql[ks][1], bh);
                    dg_mma_16x8x8(s[nb], qh[ks][0], qh[ks][1], bl);
                    dg_mma_16x8x8(s[nb], qh[ks][0], qh[ks][1], bh);
                }
            }
        }
        // Scale and mask; element e of block nb is row (e < 2 ? qi0 : qi1), key kbase + 8 nb + 2t + (e & 1).
        float tmax0 = -DG_INF, tmax1 = -DG_INF;
#pragma unroll
        for (int nb = 0; nb < 2; nb++) {
#pragma unroll
            for (int e = 0; e < 4; e++) {
                const int key = kbase + nb * 8 + 2 * t + (e & 1);
                const bool row0 = e < 2;
                const bool ok = row0 ? (qi0 < queries && key < vis0) : (qi1 < queries && key < vis1);
                s[nb][e] = ok ? s[nb][e] * scale : -DG_INF;
            }
            tmax0 = fmaxf(tmax0, fmaxf(s[nb][0], s[nb][1]));
            tmax1 = fmaxf(tmax1, fmaxf(s[nb][2], s[nb][3]));
        }
        // The 4 lanes of a row are lanes 4g .. 4g + 3.
        tmax0 = fmaxf(tmax0, DG_SHFL_XOR(tmax0, 1));
        tmax0 = fmaxf(tmax0, DG_SHFL_XOR(tmax0, 2));
        tmax1 = fmaxf(tmax1, DG_SHFL_XOR(tmax1, 1));
        tmax1 = fmaxf(tmax1, DG_SHFL_XOR(tmax1, 2));
        const float n0 = fmaxf(m0, tmax0);
        const float n1 = fmaxf(m1, tmax1);
        const float a0 = n0 == -DG_INF ? 1.0f : expf(m0 - n0); // m = -inf gives 0
        const float a1 = n1 == -DG_INF ? 1.0f : expf(m1 - n1);
        m0 = n0;
        m1 = n1;
        float sum0 = 0.0f, sum1 = 0.0f;
#pragma unroll
        for (int nb = 0; nb < 2; nb++) {
#pragma unroll
            for (int e = 0; e < 4; e++) {
                const float mm = e < 2 ? n0 : n1;
                const float p = mm == -DG_INF ? 0.0f : expf(s[nb][e] - mm); // masked: exp(-inf) = 0
                s[nb][e] = p;
            }
            sum0 += s[nb][0] + s[nb][1];
            sum1 += s[nb][2] + s[nb][3];
        }
        l0 = l0 * a0 + sum0;
        l1 = l1 * a1 + sum1;
#pragma unroll
        for (int nd = 0; nd < MAXD / 8; nd++) {
            o[nd][0] *= a0;
            o[nd][1] *= a0;
            o[nd][2] *= a1;
            o[nd][3] *= a1;
        }
        // O += P . V: block nb of the scores is k-step nb of P (the C layout is the A layout). The
        // chunk's sum goes to a fresh accumulator, added to O in f32 (the tensor cores' own
        // accumulation truncates; see gemm_tile.cuh).
        unsigned ph[2][2], pl[2][2];
#pragma unroll
        for (int kb2 = 0; kb2 < 2; kb2++) {
            dg_split2(s[kb2][0], s[kb2][1], ph[kb2][0], pl[kb2][0]);
            dg_split2(s[kb2][2], s[kb2][3], ph[kb2][1], pl[kb2][1]);
        }
#pragma unroll
        for (int nd = 0; nd < MAXD / 8; nd++) {
            if (nd < nks) {
                float part[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
                for (int kb2 = 0; kb2 < 2; kb2++) {
                    const int off = (nd * 8 + g) * DG_VLD + kb2 * 8 + 2 * t;
                    const unsigned bh = dg_ld32(vhi + off);
                    const unsigned bl = dg_ld32(vlo + off);
                    dg_mma_16x8x8(part, pl[kb2][0], pl[kb2][1], bh);
                    dg_mma_16x8x8(part, ph[kb2][0], ph[kb2][1], bl);
                    dg_mma_16x8x8(part, ph[kb2][0], ph[kb2][1], bh);
                }
#pragma unroll
                for (int e = 0; e < 4; e++) {
                    o[nd][e] += part[e];
                }
            }
        }
        __syncthreads(); // the next chunk overwrites the staged keys and values
    }

    // Row sums over the 4 lanes of each row.
    l0 += DG_SHFL_XOR(l0, 1);
    l0 += DG_SHFL_XOR(l0, 2);
    l1 += DG_SHFL_XOR(l1, 1);
    l1 += DG_SHFL_XOR(l1, 2);

    // Merge the two pairs: pair 1 hands (max, sum, output) of its rows to pair 0 through shared memory.
    float* mo = reinterpret_cast<float*>(dg_smem);       // [32][hdp] output of pair 1
    float* mm = mo + DG_AQ * hdp;                         // [32] max
    float* ml = mm + DG_AQ;                               // [32] sum
    const int r0 = rowBase + g;
    if (pair == 1) {
#pragma unroll
        for (int nd = 0; nd < MAXD / 8; nd++) {
            if (nd < nks) {
                const int c = nd * 8 + 2 * t;
                mo[r0 * hdp + c] = o[nd][0];
                mo[r0 * hdp + c + 1] = o[nd][1];
                mo[(r0 + 8) * hdp + c] = o[nd][2];
                mo[(r0 + 8) * hdp + c + 1] = o[nd][3];
            }
        }
        if (t == 0) {
            mm[r0] = m0;
            mm[r0 + 8] = m1;
            ml[r0] = l0;
            ml[r0 + 8] = l1;
        }
    }
    __syncthreads();
    if (pair == 0) {
        const float pm0 = mm[r0], pm1 = mm[r0 + 8];
        const float x0 = fmaxf(m0, pm0), x1 = fmaxf(m1, pm1);
        const float f0 = x0 == -DG_INF ? 0.0f : expf(m0 - x0), g0 = x0 == -DG_INF ? 0.0f : expf(pm0 - x0);
        const float f1 = x1 == -DG_INF ? 0.0f : expf(m1 - x1), g1 = x1 == -DG_INF ? 0.0f : expf(pm1 - x1);
        const float L0 = l0 * f0 + ml[r0] * g0;
        const float L1 = l1 * f1 + ml[r0 + 8] * g1;
        const float inv0 = L0 > 0.0f ? 1.0f / L0 : 0.0f;
        const float inv1 = L1 > 0.0f ? 1.0f / L1 : 0.0f;
#pragma unroll
        for (int nd = 0; nd < MAXD / 8; nd++) {
            if (nd < nks) {
                const int c = nd * 8 + 2 * t;
#pragma unroll
                for (int e = 0; e < 4; e++) {
                    const int row = e < 2 ? r0 : r0 + 8;
                    const int qi = e < 2 ? qi0 : qi1;
                    const int d = c + (e & 1);
                    if (qi < queries && d < hd) {
                        const float v = e < 2 ? (o[nd][e] * f0 + mo[row * hdp + d] * g0) * inv0
                                              : (o[nd][e] * f1 + mo[row * hdp + d] * g1) * inv1;
                        out[(long long) qi * outStride + d] = v;
                    }
                }
            }
        }
    }
}

extern "C" __global__ void __launch_bounds__(DG_AT, DG_AMMA_MIN_BLOCKS) attention_f32(const float* q, int qStride, int batch, int queries,
                                                                  const float* k, const float* v,
                                                                  long long kvBatchStride, int kvStride,
                                                                  const int* keys, int heads, int headDim,
                                                                  int causal, float* out) {
    const int b = blockIdx.z;
    const int h = blockIdx.y;
    const int hd = headDim;
    const float* qb = q + (long long) b * queries * qStride + h * hd;
    const float* kb = k + b * kvBatchStride + h * hd;
    const float* vb = v + b * kvBatchStride + h * hd;
    float* ob = out + (long long) b * queries * (heads * hd) + h * hd;
    if (hd <= 64) {
        dg_attention_mma<64>(qb, qStride, queries, kb, vb, kvStride, keys[b], hd, causal, ob, heads * hd, b, h,
                             blockIdx.x * DG_AQ);
    } else {
        dg_attention_mma<128>(qb, qStride, queries, kb, vb, kvStride, keys[b], hd, causal, ob, heads * hd, b, h,
                              blockIdx.x * DG_AQ);
    }
}

#else // HIP: the f32 body
#define DG_ACH (DG_AMAXD / (DG_AT / DG_AQ)) // output channels per thread

extern "C" __global__ void __launch_bounds__(DG_AT) attention_f32(const float* q, int qStride, int batch, int queries,
                                                                  const float* k, const float* v,
                                                                  long long kvBatchStride, int kvStride,
                                                                  const int* keys, int heads, int headDim,
                                                                  int causal, float* out) {
    extern __shared__ float sm[];
    const int hd = headDim;
    float* qs = sm;                       // [AQ][hd]
    float* ks = qs + DG_AQ * hd;          // [AK][hd + 1]: column reads across keys hit distinct banks
    float* vs = ks + DG_AK * (hd + 1);    // [AK][hd]
    float* ss = vs + DG_AK * hd;          // [AQ][AK + 1]: scores, then probabilities
    float* mRow = ss + DG_AQ * (DG_AK + 1);
    float* lRow = mRow + DG_AQ;
    float* alphaRow = lRow + DG_AQ;

    const int b = blockIdx.z;
    const int h = blockIdx.y;
    const int i0 = blockIdx.x * DG_AQ;
    const int tid = threadIdx.x;
    const int nk = keys[b];
    const float scale = (float) (1.0 / sqrt((double) hd)); // as the CPU: in double, then float
    const float* kb = k + b * kvBatchStride + h * hd;
    const float* vb = v + b * kvBatchStride + h * hd;

    for (int e = tid; e < DG_AQ * hd; e += DG_AT) {
        const int r = e / hd;
        const int qi = i0 + r;
        qs[e] = qi < queries ? q[(long long) (b * queries + qi) * qStride + h * hd + (e - r * hd)] : 0.0f;
    }
    if (tid < DG_AQ) {
        mRow[tid] = -DG_INF;
        lRow[tid] = 0.0f;
    }
    // Keys any query of this block may see: query i sees keys < keys[b] - queries + i + 1 when causal.
    const int lastQuery = min(i0 + DG_AQ, queries) - 1;
    const int visibleMax = causal ? min(nk, nk - queries + lastQuery + 1) : nk;

    const int myRow = tid % DG_AQ;
    const int myCh = tid / DG_AQ;
    float o[DG_ACH];
#pragma unroll
    for (int c = 0; c < DG_ACH; c++) {
        o[c] = 0.0f;
    }
    __syncthreads();

    for (int kt = 0; kt < visibleMax; kt += DG_AK) {
        for (int e = tid; e < DG_AK * hd; e += DG_AT) {
            const int j = e / hd;
            const int d = e - j * hd;
            const int key = kt + j;
            const bool in = key < visibleMax;
            ks[j * (hd + 1) + d] = in ? kb[(long long) key * kvStride + d] : 0.0f;
            vs[e] = in ? vb[(long long) key * kvStride + d] : 0.0f;
        }
        __syncthreads();

        for (int e = tid; e < DG_AQ * DG_AK; e += DG_AT) {
            const int r = e / DG_AK;
            const int j = e - r * DG_AK;
            const int qi = i0 + r;
            const int key = kt + j;
            const int visible = causal ? nk - queries + qi + 1 : nk;
            float s = -DG_INF;
            if (qi < queries && key < visible) {
                float dot = 0.0f;
                const float* qr = qs + r * hd;
                const float* kr = ks + j * (hd + 1);
                for (int d = 0; d < hd; d++) {
                    dot = fmaf(qr[d], kr[d], dot);
                }
                s = dot * scale;
            }
            ss[r * (DG_AK + 1) + j] = s;
        }
        __syncthreads();

        if (tid < DG_AQ) { // online softmax update of query row tid
            float* sr = ss + tid * (DG_AK + 1);
            float tileMax = -DG_INF;
            for (int j = 0; j < DG_AK; j++) {
                tileMax = fmaxf(tileMax, sr[j]);
            }
            const float mOld = mRow[tid];
            const float mNew = fmaxf(mOld, tileMax);
            float alpha = 1.0f;
            float sum = 0.0f;
            if (mNew == -DG_INF) { // nothing visible yet: all probabilities 0
                for (int j = 0; j < DG_AK; j++) {
                    sr[j] = 0.0f;
                }
            } else {
                alpha = expf(mOld - mNew); // mOld = -inf gives 0
                for (int j = 0; j < DG_AK; j++) {
                    const float p = expf(sr[j] - mNew); // masked scores are -inf: p = 0
                    sr[j] = p;
                    sum += p;
                }
            }
            lRow[tid] = lRow[tid] * alpha + sum;
            mRow[tid] = mNew;
            alphaRow[tid] = alpha;
        }
        __syncthreads();

        const float alpha = alphaRow[myRow];
        const float* pr = ss + myRow * (DG_AK + 1);
#pragma unroll
        for (int c = 0; c < DG_ACH; c++) {
            o[c] *= alpha;
        }
        for (int j = 0; j < DG_AK; j++) {
            const float p = pr[j];
            const float* vr = vs + j * hd + myCh;
#pragma unroll
            for (int c = 0; c < DG_ACH; c++) {
                if (myCh + 4 * c < hd) {
                    o[c] = fmaf(p, vr[4 * c], o[c]);
                }
            }
        }
        __syncthreads(); // the next tile overwrites ks, vs and ss
    }

    // Normalise and stage the output tile in qs (no longer needed) so the stores are coalesced.
    const float l = lRow[myRow];
    const float inv = l > 0.0f ? 1.0f / l : 0.0f;
#pragma unroll
    for (int c = 0; c < DG_ACH; c++) {
        if (myCh + 4 * c < hd) {
            qs[myRow * hd + myCh + 4 * c] = o[c] * inv;
        }
    }
    __syncthreads();
    const int outStride = heads * hd;
    for (int e = tid; e < DG_AQ * hd; e += DG_AT) {
        const int r = e / hd;
        const int qi = i0 + r;
        if (qi < queries) {
            out[(long long) (b * queries + qi) * outStride + h * hd + (e - r * hd)] = qs[e];
        }
    }
}
#endif
