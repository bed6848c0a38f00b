// Block-wide reductions for kernels whose block size is any multiple of warpSize up to 1024.
// Each warp reduces by shuffles, lane 0 puts the warp's partial in red[warp], one __syncthreads()
// that every thread reaches, then every thread combines the partials in the same order (so all get
// the bit-identical result without a second barrier). red must hold blockDim.x / warpSize floats
// (32 is enough for any block); the caller must __syncthreads() before reusing red.
#pragma once
#include "dictum_gpu.h"

struct DgSum {
    static __device__ __forceinline__ float identity() { return 0.0f; }
    static __device__ __forceinline__ float combine(float a, float b) { return a + b; }
    static __device__ __forceinline__ float warp(float v) { return dg_warp_sum(v); }
};

struct DgMax {
    static __device__ __forceinline__ float identity() { return -DG_INF; }
    static __device__ __forceinline__ float combine(float a, float b) { return fmaxf(a, b); }
    static __device__ __forceinline__ float warp(float v) { return dg_warp_max(v); }
};

template <class Op>
__device__ __forceinline__ float dg_block_reduce(float v, float* red) {
    v = Op::warp(v);
    if (threadIdx.x % warpSize == 0) {
        red[threadIdx.x / warpSize] = v;
    }
    __syncthreads();
    float r = Op::identity();
    const int warps = blockDim.x / warpSize;
    for (int i = 0; i < warps; i++) {
        r = Op::combine(r, red[i]);
    }
    return r;
}

__device__ __forceinline__ float dg_block_sum(float v, float* red) {
    return dg_block_reduce<DgSum>(v, red);
}

__device__ __forceinline__ float dg_block_max(float v, float* red) {
    return dg_block_reduce<DgMax>(v, red);
}
