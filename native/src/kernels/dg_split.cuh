// x = hi + lo with both halves f16 (round to nearest even each): how an f32 value enters the f16
// tensor cores with f32-like precision (dg_mma.cuh; split_f32_hilo in gemm.cu, built for every target).
#pragma once
#include "dictum_gpu.h"

__device__ __forceinline__ void dg_split(float x, __half& hi, __half& lo) {
    hi = __float2half_rn(x);
    lo = __float2half_rn(x - __half2float(hi));
}
