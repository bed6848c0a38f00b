// Fills an f32 buffer: zeroing fresh activations, poisoning outputs in tests.
#include "dictum_gpu.h"

extern "C" __global__ void fill_f32(float* p, float value, long long n) {
    const long long step = (long long) gridDim.x * blockDim.x;
    for (long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        p[i] = value;
    }
}
