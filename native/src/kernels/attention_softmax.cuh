// The steps of the online softmax (FlashAttention) that every attention body takes, and the mma-fragment
// arithmetic both NVIDIA bodies share: one definition of the rescale, the probabilities, the merge of
// two partial (max, sum, output) states and the final division, so that the three bodies of
// attention.cu and attention_rows.cu cannot drift apart in their -inf guards or rounding. Included by
// attention.cu and attention_rows.cu.
#pragma once
#include "dictum_gpu.h"

// ---- every body: one query row's online softmax ---------------------------------------------------

// The factor that rescales what a row has accumulated when its max moves from m to mNew: 1 while the
// row has seen no visible key (mNew = -inf), exp(-inf) = 0 on its first visible key.
__device__ __forceinline__ float dg_softmax_rescale(float m, float mNew) {
    return mNew == -DG_INF ? 1.0f : expf(m - mNew);
}

// A score's probability under the row's max: a masked score (-inf) gives 0, as does a row with no
// visible key yet.
__device__ __forceinline__ float dg_softmax_prob(float s, float mNew) {
    return mNew == -DG_INF ? 0.0f : expf(s - mNew);
}

// The weight of a partial (max m, sum, output) state in a merge whose max is x: exp(m - x); 0 when
// neither part saw a key (x = -inf).
__device__ __forceinline__ float dg_softmax_weight(float m, float x) {
    return x == -DG_INF ? 0.0f : expf(m - x);
}

// The weights f, g of two partial states with maxima m, pm merged under x = max(m, pm), as
// dg_softmax_weight each (written out: the NVIDIA body's measured PTX is kept byte for byte).
__device__ __forceinline__ void dg_softmax_weights(float m, float pm, float x, float& f, float& g) {
    f = x == -DG_INF ? 0.0f : expf(m - x);
    g = x == -DG_INF ? 0.0f : expf(pm - x);
}

// 1 / the row's sum; 0 for a row that saw no key, whose output stays 0.
__device__ __forceinline__ float dg_softmax_inverse(float l) {
    return l > 0.0f ? 1.0f / l : 0.0f;
}

// ---- both bodies that work in log2 units (FlashAttention's exp2 form) ---------------------------------

// The factor that goes into Q so that the scores come out in log2 units: log2(e) / sqrt(hd), in double,
// then float (attention_mma64.cuh's tensor-core body and the portable body alike).
__device__ __forceinline__ float dg_score_scale_log2(int hd) {
    return (float) (1.4426950408889634 / sqrt((double) hd));
}

// ---- the portable body: the same steps with scores in log2 units ------------------------------------

// 2^x. On gfx10 __builtin_exp2f is v_exp_f32 alone (1 ulp; a result below 2^-126 flushes to 0, as
// NVIDIA's ex2.approx.ftz in attention_mma64.cuh), where expf spends 14 VALU instructions on its range
// reduction and guards and exp2f 6 on denormal scaling; the CPU emulation's g++ takes libm's exp2f.
// CUDA (the test-only module attention_portable): exp2f.
__device__ __forceinline__ float dg_exp2(float x) {
#if defined(__HIP__) || !defined(__CUDACC__)
    return __builtin_exp2f(x);
#else
    return exp2f(x);
#endif
}

// max(a, b) of two scores in log2 units (finite or -inf, never NaN). On AMD v_med3_f32(a, b, +inf): one
// instruction, where fmaxf in the kernels' IEEE mode first quiets each operand LLVM cannot prove
// canonical (a shuffled value: 3 instructions per step of a row's max). Elsewhere fmaxf.
__device__ __forceinline__ float dg_score_max(float a, float b) {
#if defined(__HIP__)
    return __builtin_amdgcn_fmed3f(a, b, DG_INF);
#else
    return fmaxf(a, b);
#endif
}

// The running max a row starts from in log2 units: -FLT_MAX, not -inf, so that every max is finite and
// no exponential needs a guard: a masked score (-inf) gives 2^(-inf - max) = 0, a row that has seen no
// visible key keeps the floor (alpha = 2^0 = 1 on an empty output, l = 0, output 0), and its first key
// rescales that empty output by 2^(floor - score) = 0 (the difference rounds to -FLT_MAX or -inf).
#define DG_SCORE_FLOOR (-3.402823466e+38f)

// The weight of a partial state with max m in a merge whose max is x >= m (both finite, or m = -inf
// for an empty partner): 2^(m - x).
__device__ __forceinline__ float dg_softmax_weight2(float m, float x) {
    return dg_exp2(m - x);
}

// ---- both NVIDIA bodies: mma C fragments (elements 0, 1 row g; 2, 3 row g + 8) ---------------------

// The 4 lanes of an mma fragment's row are lanes 4g .. 4g + 3.
__device__ __forceinline__ float dg_quad_max(float v) {
    v = fmaxf(v, DG_SHFL_XOR(v, 1));
    return fmaxf(v, DG_SHFL_XOR(v, 2));
}

__device__ __forceinline__ float dg_quad_sum(float v) {
    v += DG_SHFL_XOR(v, 1);
    return v + DG_SHFL_XOR(v, 2);
}

template <int N>
__device__ __forceinline__ void dg_zero(float (&o)[N][4]) {
#pragma unroll
    for (int i = 0; i < N; i++) {
#pragma unroll
        for (int e = 0; e < 4; e++) {
            o[i][e] = 0.0f;
        }
    }
}

// 16-byte loads of K and V rows when every row start is 16-byte aligned (Whisper: always).
__device__ __forceinline__ bool dg_rows16(const float* kb, const float* vb, int hd, int kvStride) {
    return (hd & 3) == 0 && (kvStride & 3) == 0 && (reinterpret_cast<unsigned long long>(kb) & 15) == 0
           && (reinterpret_cast<unsigned long long>(vb) & 15) == 0;
}

// O *= alpha per row, when a tile moved the rows' maxima.
template <int N>
__device__ __forceinline__ void dg_frag_rescale(float (&o)[N][4], float a0, float a1) {
#pragma unroll
    for (int nd = 0; nd < N; nd++) {
        o[nd][0] *= a0;
        o[nd][1] *= a0;
        o[nd][2] *= a1;
        o[nd][3] *= a1;
    }
}

// O += one tile's P . V, summed by the tensor cores in a fresh accumulator and added here in f32
// (their own accumulation truncates; see gemm_tile.cuh).
__device__ __forceinline__ void dg_frag_accumulate(float (&o)[4], const float (&part)[4]) {
#pragma unroll
    for (int e = 0; e < 4; e++) {
        o[e] += part[e];
    }
}
