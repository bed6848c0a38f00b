// Whisper's audio stem: conv1d (3 taps, padding 1, stride 1 or 2) + bias + exact GELU, as the
// GEMM of the implicit im2col matrix [outFrames, inChannels * 3] (column c * 3 + tap holds
// in(c, t * stride + tap - 1), zero outside the frames) with w [out, in, 3] read as [out, in * 3],
// exactly as CpuConv. The im2col matrix is never stored: the tile loader computes each element.
#include "gemm_tile_portable_8x8.cuh"

struct DgIm2colA {
    const float* in;
    int channelMajor;
    int inChannels;
    int inFrames;
    int stride;
    __device__ float operator()(int t, int col) const {
        const int c = col / 3;
        const int f = t * stride + (col - c * 3) - 1;
        if (f < 0 || f >= inFrames) {
            return 0.0f;
        }
        return channelMajor ? in[(long long) c * inFrames + f] : in[(long long) f * inChannels + c];
    }
    __device__ bool vec4() const { return false; } // four taps of the implicit matrix are not adjacent in memory
    __device__ float4 load4(int t, int col) const {
        return make_float4((*this)(t, col), (*this)(t, col + 1), (*this)(t, col + 2), (*this)(t, col + 3));
    }
};

extern "C" __global__ void __launch_bounds__(DG_GEMM_THREADS) conv1d_gelu_f16(
        const float* in, int channelMajor, int inChannels, int inFrames, const __half* w, const __half* bias,
        int stride, float* out, int outChannels, int outFrames) {
    dg_gemm_f16_tile(DgIm2colA{in, channelMajor, inChannels, inFrames, stride}, w, bias, out, outFrames, outChannels,
                     inChannels * 3, DG_EPI_GELU); // grid as gemm_f16's
}
