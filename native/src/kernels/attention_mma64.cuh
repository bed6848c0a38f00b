// attention_f32's NVIDIA sm_80+ body for head sizes up to 64: see attention.cu. Included by
// attention.cu's NVIDIA branch, after dg_mma_sm80.cuh (or the CPU emulation's mma_emu.h); empty
// below sm_80.
#pragma once
#include "attention_softmax.cuh"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
// The sm_80+ body for head sizes up to 64 (every Whisper): 64 queries per block, warp w owns rows
// 16 w .. 16 w + 15 and walks every visible key; the block stages each 32-key tile of K and V once
// (as f16 hi/lo halves, both key-major) for all four warps, so a tile's split serves 64 queries
// (the sm_75 body: 32) and no merge is needed. Fragments come by ldmatrix (V's transposed by
// ldmatrix.trans, so V is stored with 8-byte stores like K, not transposed element by element),
// products by m16n8k16 (half the mma instructions of m16n8k8), the split by packed conversions.
// Precision as the sm_75 body: 3 mmas per product (lo.hi, hi.lo, hi.hi), P.V of each tile summed
// in a fresh accumulator and added to the output in f32; probabilities by exp2 (see below).

#define DG_AQ64 64 // queries per call of the sm_80 body

__device__ __forceinline__ void dg_attention_mma64(const float* q, int qStride, int queries, const float* kb,
                                                   const float* vb, int kvStride, int nk, int hd, int causal,
                                                   float* out, int outStride, int i0) {
    extern __shared__ __align__(16) unsigned char dg_smem[];
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int g = lane >> 2;
    const int t = lane & 3;
    const int hdp = (hd + 15) & ~15; // head size padded to the k16 step (the padding reads as zeros)
    const int kld = hdp + 8;         // halves per staged row: 16-byte rows, conflict-free ldmatrix
    const int nks = hdp / 16;        // k-steps over the head dimension
    const int nds = hdp / 8;         // output n-blocks
    // Scores in log2 units (FlashAttention's exp2 form): x = q · k / sqrt(hd) · log2(e), p = 2^(x - max),
    // one SFU instruction per probability (expf takes ~8). The factor (in double, then float) goes
    // into Q before its split, so the scores come out of the mmas already scaled.
    const float scaleLog2 = dg_score_scale_log2(hd);

    // [DG_AK][kld] each, key-major: 4 * 32 * kld halves (18 432 bytes at head size 64).
    __half* khi = reinterpret_cast<__half*>(dg_smem);
    __half* klo = khi + DG_AK * kld;
    __half* vhi = klo + DG_AK * kld;
    __half* vlo = vhi + DG_AK * kld;

    const int wFirst = i0 + warp * 16; // this warp's rows
    const int r0 = wFirst + g;          // this lane's two rows
    const int r1 = r0 + 8;

    // Q fragments (hi/lo) of Q · scaleLog2, A layout of m16n8k16: a0 (g, 2t), a1 (g + 8, 2t),
    // a2 (g, 2t + 8), a3 (g + 8, 2t + 8).
    unsigned qh[4][4], ql[4][4];
#pragma unroll
    for (int ks = 0; ks < 4; ks++) {
#pragma unroll
        for (int e = 0; e < 4; e++) {
            const int row = (e & 1) ? r1 : r0;
            const int d = ks * 16 + (e >> 1) * 8 + 2 * t;
            float x0 = 0.0f, x1 = 0.0f;
            if (ks < nks && row < queries) {
                const float* qr = q + (long long) row * qStride;
                x0 = d < hd ? qr[d] * scaleLog2 : 0.0f;
                x1 = d + 1 < hd ? qr[d + 1] * scaleLog2 : 0.0f;
            }
            dg_split2_packed(x0, x1, qh[ks][e], ql[ks][e]);
        }
    }

    float o[8][4];
    dg_zero(o);
    float m0 = -DG_INF, m1 = -DG_INF; // running max of rows r0, r1
    float l0 = 0.0f, l1 = 0.0f;       // this lane's part of the running sums

    // Rows past the queries hold zero Q: their scores are finite and never written, so only keys
    // need masking, and only in a tile that reaches past some row's last visible key.
    const int vis0 = causal ? nk - queries + r0 + 1 : nk;
    const int vis1 = causal ? nk - queries + r1 + 1 : nk;
    const int lastQuery = min(i0 + DG_AQ64, queries) - 1;
    const int visibleMax = causal ? min(nk, nk - queries + lastQuery + 1) : nk;
    const bool active = wFirst < queries;
    const int wLast = min(wFirst + 15, queries - 1);
    const int wVisMax = causal ? nk - queries + wLast + 1 : nk;  // keys this warp's last row sees
    const int wVisMin = causal ? nk - queries + wFirst + 1 : nk; // keys its first row sees

    const bool vec = dg_rows16(kb, vb, hd, kvStride);

    // ldmatrix row addresses: lane i names row i % 8 of matrix i / 8; matrices 0, 1 of the hi
    // halves, 2, 3 of the lo halves. K (not transposed): matrix 1 is 8 channels on; V (transposed):
    // matrix 1 is 8 keys on.
    const int lm = lane >> 3;
    const __half* kFrag = (lm >= 2 ? klo : khi) + (lane & 7) * kld + (lm & 1) * 8;
    const __half* vFrag = (lm >= 2 ? vlo : vhi) + ((lm & 1) * 8 + (lane & 7)) * kld;

    for (int kc = 0; kc < visibleMax; kc += DG_AK) {
        // Stage the tile: K and V rows as hi/lo halves, zero past the visible keys and past hd.
        if (vec) {
            const int d = (tid & 15) * 4;
            if (d < hdp) {
#pragma unroll
                for (int r = 0; r < DG_AK / 8; r++) {
                    const int j = (tid >> 4) + 8 * r;
                    const int key = kc + j;
                    const bool in = key < visibleMax && d < hd;
                    const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
                    const float4 x = in ? *reinterpret_cast<const float4*>(kb + (long long) key * kvStride + d) : zero;
                    const float4 y = in ? *reinterpret_cast<const float4*>(vb + (long long) key * kvStride + d) : zero;
                    unsigned h01, l01, h23, l23;
                    dg_split2_packed(x.x, x.y, h01, l01);
                    dg_split2_packed(x.z, x.w, h23, l23);
                    *reinterpret_cast<uint2*>(khi + j * kld + d) = make_uint2(h01, h23);
                    *reinterpret_cast<uint2*>(klo + j * kld + d) = make_uint2(l01, l23);
                    dg_split2_packed(y.x, y.y, h01, l01);
                    dg_split2_packed(y.z, y.w, h23, l23);
                    *reinterpret_cast<uint2*>(vhi + j * kld + d) = make_uint2(h01, h23);
                    *reinterpret_cast<uint2*>(vlo + j * kld + d) = make_uint2(l01, l23);
                }
            }
        } else {
            const int d = (tid & 31) * 2;
            if (d < hdp) {
#pragma unroll
                for (int r = 0; r < DG_AK / 4; r++) {
                    const int j = (tid >> 5) + 4 * r;
                    const int key = kc + j;
                    const bool in = key < visibleMax;
                    const float* kr = kb + (long long) key * kvStride + d;
                    const float* vr = vb + (long long) key * kvStride + d;
                    const float x0 = in && d < hd ? kr[0] : 0.0f, x1 = in && d + 1 < hd ? kr[1] : 0.0f;
                    const float y0 = in && d < hd ? vr[0] : 0.0f, y1 = in && d + 1 < hd ? vr[1] : 0.0f;
                    unsigned hi, lo;
                    dg_split2_packed(x0, x1, hi, lo);
                    *reinterpret_cast<unsigned*>(khi + j * kld + d) = hi;
                    *reinterpret_cast<unsigned*>(klo + j * kld + d) = lo;
                    dg_split2_packed(y0, y1, hi, lo);
                    *reinterpret_cast<unsigned*>(vhi + j * kld + d) = hi;
                    *reinterpret_cast<unsigned*>(vlo + j * kld + d) = lo;
                }
            }
        }
        __syncthreads();

        if (active && kc < wVisMax) { // warp-uniform: a warp with no row or no visible key idles
            // S = Q . K^T: 16 rows x 32 keys, four 16 x 8 blocks (k-step outside: 4 independent chains).
            float s[4][4];
            dg_zero(s);
#pragma unroll
            for (int ks = 0; ks < 4; ks++) {
                if (ks < nks) {
#pragma unroll
                    for (int nb = 0; nb < 4; nb++) {
                        unsigned b[4]; // hi b0, hi b1, lo b0, lo b1
                        dg_ldmatrix_x4(b, kFrag + nb * 8 * kld + ks * 16);
                        dg_mma_16x8x16(s[nb], ql[ks], b[0], b[1]);
                        dg_mma_16x8x16(s[nb], qh[ks], b[2], b[3]);
                        dg_mma_16x8x16(s[nb], qh[ks], b[0], b[1]);
                    }
                }
            }
            // Mask; element e of block nb is row (e < 2 ? r0 : r1), key kc + 8 nb + 2t + (e & 1).
            if (kc + DG_AK > wVisMin) {
#pragma unroll
                for (int nb = 0; nb < 4; nb++) {
#pragma unroll
                    for (int e = 0; e < 4; e++) {
                        const int key = kc + nb * 8 + 2 * t + (e & 1);
                        s[nb][e] = key < (e < 2 ? vis0 : vis1) ? s[nb][e] : -DG_INF;
                    }
                }
            }
            float tmax0 = -DG_INF, tmax1 = -DG_INF;
#pragma unroll
            for (int nb = 0; nb < 4; nb++) {
                tmax0 = fmaxf(tmax0, fmaxf(s[nb][0], s[nb][1]));
                tmax1 = fmaxf(tmax1, fmaxf(s[nb][2], s[nb][3]));
            }
            // Every warp starts at key 0, which every row sees (a row past the queries scores 0 with its
            // zero Q): the new max is finite, so no -inf guard is needed; 2^(-inf) = 0 for the masked
            // keys and for the first tile's rescale (m = -inf).
            const float n0 = fmaxf(m0, dg_quad_max(tmax0));
            const float n1 = fmaxf(m1, dg_quad_max(tmax1));
            const float a0 = dg_ex2(m0 - n0);
            const float a1 = dg_ex2(m1 - n1);
            m0 = n0;
            m1 = n1;
            float sum0 = 0.0f, sum1 = 0.0f;
#pragma unroll
            for (int nb = 0; nb < 4; nb++) {
#pragma unroll
                for (int e = 0; e < 4; e++) {
                    s[nb][e] = dg_ex2(s[nb][e] - (e < 2 ? n0 : n1));
                }
                sum0 += s[nb][0] + s[nb][1];
                sum1 += s[nb][2] + s[nb][3];
            }
            l0 = l0 * a0 + sum0;
            l1 = l1 * a1 + sum1;
            if (__any_sync(0xffffffffu, a0 != 1.0f || a1 != 1.0f)) { // late tiles rarely move a max
                dg_frag_rescale(o, a0, a1);
            }
            // O += P . V: blocks 2kk, 2kk + 1 of the scores are k-step kk of P (A layout). The tile's
            // sum goes to a fresh accumulator, added to O in f32.
            unsigned ph[2][4], pl[2][4];
#pragma unroll
            for (int kk = 0; kk < 2; kk++) {
                dg_split2_packed(s[2 * kk][0], s[2 * kk][1], ph[kk][0], pl[kk][0]);
                dg_split2_packed(s[2 * kk][2], s[2 * kk][3], ph[kk][1], pl[kk][1]);
                dg_split2_packed(s[2 * kk + 1][0], s[2 * kk + 1][1], ph[kk][2], pl[kk][2]);
                dg_split2_packed(s[2 * kk + 1][2], s[2 * kk + 1][3], ph[kk][3], pl[kk][3]);
            }
#pragma unroll
            for (int nd = 0; nd < 8; nd++) {
                if (nd < nds) {
                    float part[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
                    for (int kk = 0; kk < 2; kk++) {
                        unsigned b[4]; // hi b0, hi b1, lo b0, lo b1
                        dg_ldmatrix_x4_trans(b, vFrag + kk * 16 * kld + nd * 8);
                        dg_mma_16x8x16(part, pl[kk], b[0], b[1]);
                        dg_mma_16x8x16(part, ph[kk], b[2], b[3]);
                        dg_mma_16x8x16(part, ph[kk], b[0], b[1]);
                    }
                    dg_frag_accumulate(o[nd], part);
                }
            }
        }
        __syncthreads(); // the next tile overwrites the staged keys and values
    }

    l0 = dg_quad_sum(l0);
    l1 = dg_quad_sum(l1);
    const float inv0 = dg_softmax_inverse(l0);
    const float inv1 = dg_softmax_inverse(l1);
#pragma unroll
    for (int nd = 0; nd < 8; nd++) {
        if (nd < nds) {
#pragma unroll
            for (int e = 0; e < 4; e++) {
                const int row = e < 2 ? r0 : r1;
                const int d = nd * 8 + 2 * t + (e & 1);
                if (row < queries && d < hd) {
                    out[(long long) row * outStride + d] = o[nd][e] * (e < 2 ? inv0 : inv1);
                }
            }
        }
    }
}
#endif
