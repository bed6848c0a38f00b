// Weight upload: f32 and bf16 tensors become f16 on the device (weights are f16 there), so a
// whole tensor is copied once in its file's type and never converted on the host.
#include "dictum_gpu.h"

extern "C" __global__ void convert_f32_to_f16(const float* src, __half* dst, long long n) {
    const long long step = (long long) gridDim.x * blockDim.x;
    for (long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        dst[i] = __float2half_rn(src[i]);
    }
}

// bf16 is the top half of an f32: widening is exact, the one rounding is to f16.
extern "C" __global__ void convert_bf16_to_f16(const unsigned short* src, __half* dst, long long n) {
    const long long step = (long long) gridDim.x * blockDim.x;
    for (long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        dst[i] = __float2half_rn(__uint_as_float((unsigned int) src[i] << 16));
    }
}
