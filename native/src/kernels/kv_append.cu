// The decoder step's new key/value row written at the current position, which the kernel reads
// from device memory (step[1]) when it runs: a captured step graph replays it at every position.
#include "dictum_gpu.h"

extern "C" __global__ void kv_append_f32(const float* src, float* dst, const int* step, long long rowStride,
                                         int count) {
    float* row = dst + (long long) step[1] * rowStride;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
        row[i] = src[i];
    }
}
