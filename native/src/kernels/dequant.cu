// Quantised weights (whisper.cpp ggml blocks, CTranslate2 int8) dequantised to f16 on the device
// at load. Each value is computed in f32 exactly as the CPU's Dequant.java does and rounded once
// to f16, so the GPU holds the f16 rounding of the CPU's values. Blocks are byte-packed (34, 22,
// 24, 18 bytes): everything is read byte by byte, little-endian, with no alignment assumed.
#include "dictum_gpu.h"

__device__ __forceinline__ float dg_f16_at(const unsigned char* p) {
    return __half2float(__ushort_as_half((unsigned short) (p[0] | (p[1] << 8))));
}

__device__ __forceinline__ unsigned int dg_u32_at(const unsigned char* p) {
    return (unsigned int) p[0] | ((unsigned int) p[1] << 8) | ((unsigned int) p[2] << 16)
            | ((unsigned int) p[3] << 24);
}

// Value j (0..31) of a 16-byte nibble array: j < 16 is the low nibble of qs[j], j >= 16 the high
// nibble of qs[j - 16].
__device__ __forceinline__ int dg_nibble(const unsigned char* qs, int j) {
    return j < 16 ? (qs[j] & 0x0f) : (qs[j - 16] >> 4);
}

// One thread per value: idx / 32 is the block, idx % 32 the value in it.
#define DG_FOR_EACH_VALUE(nblocks)                                                         \
    const long long dg_step = (long long) gridDim.x * blockDim.x;                          \
    for (long long idx = (long long) blockIdx.x * blockDim.x + threadIdx.x;                \
         idx < (nblocks) * 32; idx += dg_step)

// Q8_0: f16 d, int8 q[32]; x = d * q.
extern "C" __global__ void dequant_q8_0_f16(const unsigned char* blocks, __half* dst, long long nblocks) {
    DG_FOR_EACH_VALUE(nblocks) {
        const unsigned char* blk = blocks + (idx >> 5) * 34;
        const int j = (int) (idx & 31);
        dst[idx] = __float2half_rn(dg_f16_at(blk) * (float) (signed char) blk[2 + j]);
    }
}

// Q4_0: f16 d, u8 qs[16]; x = d * (nibble - 8).
extern "C" __global__ void dequant_q4_0_f16(const unsigned char* blocks, __half* dst, long long nblocks) {
    DG_FOR_EACH_VALUE(nblocks) {
        const unsigned char* blk = blocks + (idx >> 5) * 18;
        const int j = (int) (idx & 31);
        dst[idx] = __float2half_rn(dg_f16_at(blk) * (float) (dg_nibble(blk + 2, j) - 8));
    }
}

// Q5_0: f16 d, u32 qh, u8 qs[16]; bit j of qh is bit 4 of value j; x = d * (q5 - 16).
extern "C" __global__ void dequant_q5_0_f16(const unsigned char* blocks, __half* dst, long long nblocks) {
    DG_FOR_EACH_VALUE(nblocks) {
        const unsigned char* blk = blocks + (idx >> 5) * 22;
        const int j = (int) (idx & 31);
        const int q = dg_nibble(blk + 6, j) | (int) (((dg_u32_at(blk + 2) >> j) & 1u) << 4);
        dst[idx] = __float2half_rn(fmaf((float) (q - 16), dg_f16_at(blk), 0.0f));
    }
}

// Q5_1: f16 d, f16 m, u32 qh, u8 qs[16]; x = d * q5 + m (one rounding, as the CPU's fma).
extern "C" __global__ void dequant_q5_1_f16(const unsigned char* blocks, __half* dst, long long nblocks) {
    DG_FOR_EACH_VALUE(nblocks) {
        const unsigned char* blk = blocks + (idx >> 5) * 24;
        const int j = (int) (idx & 31);
        const int q = dg_nibble(blk + 8, j) | (int) (((dg_u32_at(blk + 4) >> j) & 1u) << 4);
        dst[idx] = __float2half_rn(fmaf((float) q, dg_f16_at(blk), dg_f16_at(blk + 2)));
    }
}

// CTranslate2 int8: x = q * rowScales[row].
extern "C" __global__ void dequant_i8_f16(const signed char* q, const float* rowScales, __half* dst, int rows,
                                          int cols) {
    const long long total = (long long) rows * cols;
    const long long step = (long long) gridDim.x * blockDim.x;
    for (long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x; i < total; i += step) {
        dst[i] = __float2half_rn((float) q[i] * rowScales[i / cols]);
    }
}
