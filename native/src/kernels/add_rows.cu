// x[r] += table[firstRow + r]: the positional embedding added to the encoder's conv output.
#include "dictum_gpu.h"

extern "C" __global__ void add_rows_f16(float* x, int rows, int cols, const __half* table, int firstRow) {
    const long long total = (long long) rows * cols;
    const __half* t = table + (long long) firstRow * cols;
    const long long step = (long long) gridDim.x * blockDim.x;
    for (long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x; i < total; i += step) {
        x[i] += __half2float(t[i]);
    }
}
