// Keys and values stored as f32 or f16 (issue 22: the GPU keeps the cross K/V and the decoder's self
// K/V caches in f16, half the bytes a decoded token reads): one way to load them as f32 and to store
// an f32 result into either, for every kernel that reads or writes them (cross_attention.cu,
// attention_rows.cu, transpose.cu, kv_append.cu, the GEMVs' store in gemv_common.cuh). Every product,
// sum and partial stays f32; a store into f16 rounds to nearest even.
#pragma once
#include "dictum_gpu.h"

// One stored K/V element as f32.
__device__ __forceinline__ float dg_kv(float v) {
    return v;
}
__device__ __forceinline__ float dg_kv(__half v) {
    return __half2float(v);
}

// Four consecutive K/V elements as f32, one load: 16 bytes of f32, 8 of f16 (element 0 in the low
// half of the first word: both vendors' GPUs are little-endian). p is aligned to the load's size.
__device__ __forceinline__ float4 dg_kv4(const float* p) {
    return *reinterpret_cast<const float4*>(p);
}
__device__ __forceinline__ float4 dg_kv4(const __half* p) {
    const uint2 u = *reinterpret_cast<const uint2*>(p);
    return make_float4(__half2float(__ushort_as_half((unsigned short) (u.x & 0xffffu))),
                       __half2float(__ushort_as_half((unsigned short) (u.x >> 16))),
                       __half2float(__ushort_as_half((unsigned short) (u.y & 0xffffu))),
                       __half2float(__ushort_as_half((unsigned short) (u.y >> 16))));
}

// An f32 result stored as the buffer stores its values.
__device__ __forceinline__ void dg_store(float* p, float v) {
    *p = v;
}
__device__ __forceinline__ void dg_store(__half* p, float v) {
    *p = __float2half_rn(v);
}
