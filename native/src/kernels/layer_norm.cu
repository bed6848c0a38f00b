// LayerNorm over each row (eps 1e-5), as CpuLayerNorm: mean first, then the centred variance
// (two passes, no E[x^2] - E[x]^2 cancellation), out = fma((x - mean) * inv, gain, bias).
// One block per row; the block size may be any multiple of warpSize up to 1024 — the reductions
// (block_reduce.cuh) are correct at each, which the seed's softmax reduction was not.
#include "block_reduce.cuh"

// float4s of a row each thread keeps in registers on the one-read path (rows up to 8 · 4 · blockDim
// columns: 8192 at the default block of 256; 1280 needs 2 per thread at 256).
#define DG_LN_VEC 8

extern "C" __global__ void __launch_bounds__(1024) layer_norm_f32(const float* x, const __half* gain,
                                                                  const __half* bias, float* out, int rows,
                                                                  int cols) {
    __shared__ float redMean[32];
    __shared__ float redVar[32];
    // The encoder's rows (1500 x d_model per launch) are pure memory traffic: where the row fits the
    // threads' registers and every row start is 16-byte aligned, read it once by 16-byte loads and keep
    // it for the variance and the output (the element path below reads x three times, 4 bytes a load).
    const bool vec = (cols % 4) == 0 && (reinterpret_cast<unsigned long long>(x) & 15) == 0 &&
                     (reinterpret_cast<unsigned long long>(out) & 15) == 0 &&
                     cols / 4 <= DG_LN_VEC * (int) blockDim.x;
    for (int row = blockIdx.x; row < rows; row += gridDim.x) {
        const float* xr = x + (long long) row * cols;
        float* orow = out + (long long) row * cols;
        if (vec) {
            const int quads = cols / 4;
            float4 v[DG_LN_VEC];
            float s = 0.0f;
#pragma unroll
            for (int j = 0; j < DG_LN_VEC; j++) {
                const int q = threadIdx.x + j * blockDim.x;
                if (q < quads) {
                    v[j] = reinterpret_cast<const float4*>(xr)[q];
                    s += (v[j].x + v[j].y) + (v[j].z + v[j].w);
                }
            }
            const float mean = dg_block_sum(s, redMean) / cols;
            float var = 0.0f;
#pragma unroll
            for (int j = 0; j < DG_LN_VEC; j++) {
                if (threadIdx.x + j * blockDim.x < quads) {
                    const float a = v[j].x - mean, b = v[j].y - mean, c = v[j].z - mean, d = v[j].w - mean;
                    var = fmaf(a, a, var);
                    var = fmaf(b, b, var);
                    var = fmaf(c, c, var);
                    var = fmaf(d, d, var);
                }
            }
            var = dg_block_sum(var, redVar);
            const float inv = (float) (1.0 / sqrt((double) (var / cols + 1e-5f)));
#pragma unroll
            for (int j = 0; j < DG_LN_VEC; j++) {
                const int q = threadIdx.x + j * blockDim.x;
                if (q < quads) {
                    const int c = 4 * q;
                    float4 o;
                    o.x = fmaf((v[j].x - mean) * inv, __half2float(gain[c]), __half2float(bias[c]));
                    o.y = fmaf((v[j].y - mean) * inv, __half2float(gain[c + 1]), __half2float(bias[c + 1]));
                    o.z = fmaf((v[j].z - mean) * inv, __half2float(gain[c + 2]), __half2float(bias[c + 2]));
                    o.w = fmaf((v[j].w - mean) * inv, __half2float(gain[c + 3]), __half2float(bias[c + 3]));
                    reinterpret_cast<float4*>(orow)[q] = o;
                }
            }
            __syncthreads(); // redMean/redVar are reused by the next row
            continue;
        }
        float s = 0.0f;
        for (int c = threadIdx.x; c < cols; c += blockDim.x) {
            s += xr[c];
        }
        const float mean = dg_block_sum(s, redMean) / cols;
        float v = 0.0f;
        for (int c = threadIdx.x; c < cols; c += blockDim.x) {
            const float d = xr[c] - mean;
            v = fmaf(d, d, v);
        }
        const float var = dg_block_sum(v, redVar);
        // As the CPU: the variance in float, the square root and reciprocal in double.
        const float inv = (float) (1.0 / sqrt((double) (var / cols + 1e-5f)));
        for (int c = threadIdx.x; c < cols; c += blockDim.x) {
            orow[c] = fmaf((xr[c] - mean) * inv, __half2float(gain[c]), __half2float(bias[c]));
        }
        __syncthreads(); // redMean/redVar are reused by the next row
    }
}
