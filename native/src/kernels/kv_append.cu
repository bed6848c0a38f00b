// The decoder step's new key/value row written at the current position, which the kernel reads
// from device memory (step[1]) when it runs: a captured step graph replays it at every position.
// kv_append_f16 rounds the row into an f16 cache (the GPU's self K/V since issue 22).
#include "dictum_gpu.h"
#include "kv_half.cuh"

template <typename T>
__device__ __forceinline__ void kv_append_body(const float* src, T* dst, const int* step, long long rowStride,
                                               int count) {
    T* row = dst + (long long) step[1] * rowStride;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
        dg_store(row + i, src[i]);
    }
}

extern "C" __global__ void kv_append_f32(const float* src, float* dst, const int* step, long long rowStride,
                                         int count) {
    kv_append_body(src, dst, step, rowStride, count);
}

extern "C" __global__ void kv_append_f16(const float* src, __half* dst, const int* step, long long rowStride,
                                         int count) {
    kv_append_body(src, dst, step, rowStride, count);
}
