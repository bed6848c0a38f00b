// Decoder input rows: token embedding + positional embedding, both f16 tables on the device.
// The ids are device arrays; the host checks them against the tables before uploading.
#include "dictum_gpu.h"

extern "C" __global__ void embed_f16(const int* tokens, const int* positions, int count, const __half* tokenTable,
                                     const __half* positionTable, float* out, int cols) {
    const long long total = (long long) count * cols;
    const long long step = (long long) gridDim.x * blockDim.x;
    for (long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x; i < total; i += step) {
        const int row = (int) (i / cols);
        const int c = (int) (i - (long long) row * cols);
        out[i] = __half2float(tokenTable[(long long) tokens[row] * cols + c])
                + __half2float(positionTable[(long long) positions[row] * cols + c]);
    }
}
