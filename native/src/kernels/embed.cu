// Decoder input rows: token embedding + positional embedding, f16 tables on the device (the token table
// of a q8_0 file as its q8_0 blocks: embed_q8_0).
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

// embed_f16 with the token table held as ggml q8_0 blocks (issue 22: the q8_0 file's token table stays
// q8_0 on the device, the logits' weight too): token value c of a row is d · q of its block, in f32 exactly
// as Dequant.java, so the row is the CPU's and never rounded to f16. The block is read byte by byte (34-byte
// blocks are 2-byte aligned only; this kernel moves count · cols values, a few rows per decoded token).
extern "C" __global__ void embed_q8_0(const int* tokens, const int* positions, int count,
                                      const unsigned char* tokenTable, const __half* positionTable, float* out,
                                      int cols) {
    const long long total = (long long) count * cols;
    const long long step = (long long) gridDim.x * blockDim.x;
    const long long rowBytes = (long long) (cols / 32) * 34;
    for (long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x; i < total; i += step) {
        const int row = (int) (i / cols);
        const int c = (int) (i - (long long) row * cols);
        const unsigned char* blk = tokenTable + (long long) tokens[row] * rowBytes + (c >> 5) * 34;
        const float d = __half2float(__ushort_as_half((unsigned short) (blk[0] | (blk[1] << 8))));
        // d · q rounded on its own, as the CPU's row (fmaf with 0: never contracted into the add below)
        const float t = fmaf(d, (float) (signed char) blk[2 + (c & 31)], 0.0f);
        out[i] = t + __half2float(positionTable[(long long) positions[row] * cols + c]);
    }
}
