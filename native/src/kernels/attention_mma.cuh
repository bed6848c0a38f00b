// attention_f32's NVIDIA tensor-core body for any head size up to 128 (sm_75 and newer; the only
// NVIDIA body in the compute_75 PTX): see attention.cu. Included by attention.cu's NVIDIA branch,
// after dg_mma.cuh (or the CPU emulation's mma_emu.h).
#pragma once
#include "attention_softmax.cuh"

#define DG_PK 16 // keys per warp pair per chunk
#define DG_VLD (DG_PK + 8) // halves per transposed-value row: 12 words, conflict-free fragment loads

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
    dg_zero(o);
    float m0 = -DG_INF, m1 = -DG_INF; // running max of rows qi0, qi1
    float l0 = 0.0f, l1 = 0.0f;       // this lane's part of the running sums

    const int vis0 = causal ? nk - queries + qi0 + 1 : nk;
    const int vis1 = causal ? nk - queries + qi1 + 1 : nk;
    const int lastQuery = min(i0 + DG_AQ, queries) - 1;
    const int visibleMax = causal ? min(nk, nk - queries + lastQuery + 1) : nk;
    const int lt = tid & 63;

    const bool vec = dg_rows16(kb, vb, hd, kvStride);
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
        const float n0 = fmaxf(m0, dg_quad_max(tmax0));
        const float n1 = fmaxf(m1, dg_quad_max(tmax1));
        const float a0 = dg_softmax_rescale(m0, n0);
        const float a1 = dg_softmax_rescale(m1, n1);
        m0 = n0;
        m1 = n1;
        float sum0 = 0.0f, sum1 = 0.0f;
#pragma unroll
        for (int nb = 0; nb < 2; nb++) {
#pragma unroll
            for (int e = 0; e < 4; e++) {
                const float mm = e < 2 ? n0 : n1;
                s[nb][e] = dg_softmax_prob(s[nb][e], mm);
            }
            sum0 += s[nb][0] + s[nb][1];
            sum1 += s[nb][2] + s[nb][3];
        }
        l0 = l0 * a0 + sum0;
        l1 = l1 * a1 + sum1;
        dg_frag_rescale(o, a0, a1);
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
                dg_frag_accumulate(o[nd], part);
            }
        }
        __syncthreads(); // the next chunk overwrites the staged keys and values
    }

    l0 = dg_quad_sum(l0);
    l1 = dg_quad_sum(l1);

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
        float f0, g0, f1, g1;
        dg_softmax_weights(m0, pm0, x0, f0, g0);
        dg_softmax_weights(m1, pm1, x1, f1, g1);
        const float L0 = l0 * f0 + ml[r0] * g0;
        const float L1 = l1 * f1 + ml[r0 + 8] * g1;
        const float inv0 = dg_softmax_inverse(L0);
        const float inv1 = dg_softmax_inverse(L1);
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
