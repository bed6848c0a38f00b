// What the GEMV bodies share (gemv.cu: f16 weights; gemv_q8_0.cu: q8_0 blocks, issue 22): the work
// split of a row over warps, the slices' sum through shared memory, the bias and epilogue store, the
// read-only load, the LayerNorm prologue of the one-row fused entries and the loads of x from global or
// shared memory. One definition, so that every body splits a row, adds its slices and normalises x the
// same way (LaunchGeometry.gemvSplit sizes the grid of any of them from dg_gemv_split).
#pragma once
#include "dictum_gpu.h"
#include "block_reduce.cuh"
#include "kv_half.cuh"

#define DG_GEMV_ROWS 8
#define DG_GEMV_UNROLL 8
#define DG_GEMV_MAX_WARPS 8 // 256 threads of W = 32 (the entries' launch bound)

#if defined(__HIP__)
#define DG_LDG(p) (*(p))
#else
#define DG_LDG(p) __ldg(p) // read-only path: w and x are never written by a GEMV
#endif

// Warps per output column for a row of k elements: the largest power of two ≤ warps whose slices
// still hold ≥ 4 loads of 16 bytes per lane (a shorter slice costs more in its reduction than it
// gains in loads in flight). LaunchGeometry.gemvSplit computes the same to size the grid.
__device__ __forceinline__ int dg_gemv_split(int k, int warps, int w) {
    int s = 1;
    while (s * 2 <= warps && (k / 8) / (s * 2) >= 4 * w) {
        s *= 2;
    }
    return s;
}

// The slices' partial sums of one column group (acc[0..nr), each already summed over its warp) meet in
// part (R floats per warp) and the slice-0 warp's lane 0 adds them in slice order into its acc: no
// atomics, the same bits on every run. Every thread of the block calls it (its barriers): the bodies'
// loop bounds are uniform over the block. Nothing to add when split == 1.
template <int R>
__device__ __forceinline__ void dg_gemv_sum_slices(float (&part)[DG_GEMV_MAX_WARPS][R], float* acc, int nr, int warp,
                                                   int lane, int slice, int split) {
    if (split > 1) {
        if (lane == 0) {
            for (int r = 0; r < nr; r++) {
                part[warp][r] = acc[r];
            }
        }
        __syncthreads();
        if (slice == 0 && lane == 0) {
            for (int r = 0; r < nr; r++) {
                float t = part[warp][r];
                for (int s = 1; s < split; s++) {
                    t += part[warp + s][r]; // slice order: the same sum on every run
                }
                acc[r] = t;
            }
        }
        __syncthreads(); // part is reused by the next column group or pass of rows
    }
}

// out[r][j] = epilogue(acc[r] + bias[j]) for the nr rows of a pass starting at row r0 (out: n values a
// row), stored as O stores (f32, or f16 for a K/V cache: rounded once). Epilogue 0: the value; 1: its
// GELU; 2: added to what out holds (the residual).
template <typename O>
__device__ __forceinline__ void dg_gemv_store(O* out, const __half* bias, const float* acc, int nr, int r0, int n,
                                              int j, int epilogue) {
    const float b = bias ? __half2float(bias[j]) : 0.0f;
    for (int r = 0; r < nr; r++) {
        const float v = acc[r] + b;
        O* o = out + (long long) (r0 + r) * n + j;
        if (epilogue == 1) {
            dg_store(o, dg_gelu(v));
        } else if (epilogue == 2) {
            dg_store(o, dg_kv(*o) + v);
        } else {
            dg_store(o, v);
        }
    }
}

// Elements of x (and of gain and bias) per thread whose loads are all issued before the first is used:
// a row of k ≤ 10 · blockDim (1280, large-v3's d, at 128 threads) is one round trip to L2 instead of
// six (the loop of one load per element, unrolled by 4, for x and then for gain and bias measured
// ~4 µs of prologue at k 1280 on an H100). 10 keeps gemv1_ln_f16 at 99 registers on sm_90 (12: 121).
#define DG_LN_BATCH 10

// Normalises x[0..k) into xs (shared) as layer_norm_f32 with eps 1e-5 (the same sums in the same order
// at the same block size); gb (shared, k half2) holds (gain, bias) meanwhile. Ends with a barrier.
__device__ __forceinline__ void dg_ln_row(const float* x, const __half* gain, const __half* lnBias, float* xs,
                                          __half2* gb, int k, float* redMean, float* redVar) {
    float s = 0.0f;
    for (int c0 = threadIdx.x; c0 < k; c0 += DG_LN_BATCH * blockDim.x) {
        float v[DG_LN_BATCH];
        __half g[DG_LN_BATCH];
        __half b[DG_LN_BATCH];
#pragma unroll
        for (int e = 0; e < DG_LN_BATCH; e++) { // every load of the batch first ...
            const int c = c0 + e * blockDim.x;
            const bool in = c < k;
            v[e] = in ? DG_LDG(x + c) : 0.0f;
            g[e] = in ? DG_LDG(gain + c) : __float2half(0.0f);
            b[e] = in ? DG_LDG(lnBias + c) : __float2half(0.0f);
        }
#pragma unroll
        for (int e = 0; e < DG_LN_BATCH; e++) { // ... then the sum, in element order as layer_norm_f32
            const int c = c0 + e * blockDim.x;
            if (c < k) {
                xs[c] = v[e];
                gb[c] = __halves2half2(g[e], b[e]);
                s += v[e];
            }
        }
    }
    const float mean = dg_block_sum(s, redMean) / k;
    float v = 0.0f;
    for (int c = threadIdx.x; c < k; c += blockDim.x) { // the elements this thread stored: no barrier
        const float d = xs[c] - mean;
        v = fmaf(d, d, v);
    }
    const float var = dg_block_sum(v, redVar);
    const float inv = (float) (1.0 / sqrt((double) (var / k + 1e-5f))); // as layer_norm_f32 and the CPU
    for (int c = threadIdx.x; c < k; c += blockDim.x) {
        const float2 p = __half22float2(gb[c]);
        xs[c] = fmaf((xs[c] - mean) * inv, p.x, p.y);
    }
    __syncthreads();
}

template <bool XS>
__device__ __forceinline__ float4 dg_ldx4(const float4* p) {
    if (XS) {
        return *p; // shared memory (the normalised row)
    }
    return DG_LDG(p);
}

template <bool XS>
__device__ __forceinline__ float dg_ldx(const float* p) {
    if (XS) {
        return *p;
    }
    return DG_LDG(p);
}
