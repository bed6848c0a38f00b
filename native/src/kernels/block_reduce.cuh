// Block-wide reductions for kernels whose block size is any multiple of warpSize up to 1024.
// Each warp reduces by shuffles, lane 0 puts the warp's partial in red[warp], one __syncthreads()
// that every thread reaches, then every thread adds the partials in the same order (so all get
// the bit-identical result without a second barrier). red must hold blockDim.x / warpSize floats
// (32 is enough for any block); the caller must __syncthreads() before reusing red.
#pragma once
#include "dictum_gpu.h"

__device__ __forceinline__ float dg_block_sum(float v, float* red) {
    v = dg_warp_sum(v);
    const int warps = blockDim.x / warpSize;
    if (threadIdx.x % warpSize == 0) {
        red[threadIdx.x / warpSize] = v;
    }
    __syncthreads();
    float total = 0.0f;
    for (int i = 0; i < warps; i++) {
        total += red[i];
    }
    return total;
}

__device__ __forceinline__ float dg_block_max(float v, float* red) {
    v = dg_warp_max(v);
    const int warps = blockDim.x / warpSize;
    if (threadIdx.x % warpSize == 0) {
        red[threadIdx.x / warpSize] = v;
    }
    __syncthreads();
    float m = -DG_INF;
    for (int i = 0; i < warps; i++) {
        m = fmaxf(m, red[i]);
    }
    return m;
}
