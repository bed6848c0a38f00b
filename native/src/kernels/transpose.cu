// dst[c * dstStride + r] = src[r * cols + c], 32 x 32 tiles through shared memory so both the
// read and the write are coalesced; the tile is 33 wide so a column read hits 32 distinct banks.
// Block: exactly 256 threads (32 columns x 8 rows of threads). Grid-stride over row tiles.
#include "dictum_gpu.h"

#define DG_T 32

extern "C" __global__ void __launch_bounds__(256) transpose_f32(const float* src, int rows, int cols, float* dst,
                                                                 int dstStride) {
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
                dst[(long long) c * dstStride + r] = tile[tx][y];
            }
        }
        __syncthreads();
    }
}
