// dst[c * dstStride + r] = src[r * cols + c], 32 x 32 tiles through shared memory so both the
// read and the write are coalesced; the tile is 33 wide so a column read hits 32 distinct banks.
// Block: exactly 256 threads (32 columns x 8 rows of threads). Grid-stride over row tiles.
// transpose_f32_to_f16 stores the result rounded to f16 (the GPU's cross keys, issue 22).
#include "dictum_gpu.h"
#include "kv_half.cuh"

#define DG_T 32

template <typename T>
__device__ __forceinline__ void transpose_body(const float* src, int rows, int cols, T* dst, int dstStride) {
    __shared__ float tile[DG_T][DG_T + 1];
    const int tx = threadIdx.x % DG_T;
    const int ty = threadIdx.x / DG_T;
    const int c0 = blockIdx.x * DG_T;
    const int rowTiles = (rows + DG_T - 1) / DG_T;
    for (int by = blockIdx.y; by < rowTiles; by += gridDim.y) {
        const int r0 = by * DG_T;
        for (int y = ty; y < DG_T; y += 8) {
            const int r = r0 + y;
            const int c = c0 + tx;
            if (r < rows && c < cols) {
                tile[y][tx] = src[(long long) r * cols + c];
            }
        }
        __syncthreads();
        for (int y = ty; y < DG_T; y += 8) {
            const int c = c0 + y;
            const int r = r0 + tx;
            if (c < cols && r < rows) {
                dg_store(dst + (long long) c * dstStride + r, tile[tx][y]);
            }
        }
        __syncthreads();
    }
}

extern "C" __global__ void __launch_bounds__(256) transpose_f32(const float* src, int rows, int cols, float* dst,
                                                                 int dstStride) {
    transpose_body(src, rows, cols, dst, dstStride);
}

extern "C" __global__ void __launch_bounds__(256) transpose_f32_to_f16(const float* src, int rows, int cols,
                                                                        __half* dst, int dstStride) {
    transpose_body(src, rows, cols, dst, dstStride);
}
