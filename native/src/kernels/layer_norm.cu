// LayerNorm over each row (eps 1e-5), as CpuLayerNorm: mean first, then the centred variance
// (two passes, no E[x^2] - E[x]^2 cancellation), out = fma((x - mean) * inv, gain, bias).
// One block per row; the block size may be any multiple of warpSize up to 1024 — the reductions
// (block_reduce.cuh) are correct at each, which the seed's softmax reduction was not.
#include "block_reduce.cuh"

extern "C" __global__ void __launch_bounds__(1024) layer_norm_f32(const float* x, const __half* gain,
                                                                  const __half* bias, float* out, int rows,
                                                                  int cols) {
    __shared__ float redMean[32];
    __shared__ float redVar[32];
    for (int row = blockIdx.x; row < rows; row += gridDim.x) {
        const float* xr = x + (long long) row * cols;
        float* orow = out + (long long) row * cols;
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
