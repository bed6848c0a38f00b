// out = epilogue(x · wᵀ + bias): the linear layers with many rows (the encoder, a prompt).
// x [rows, k] f32, w [n, k] f16 (PyTorch order), out [rows, n] f32. See gemm_tile.cuh.
#include "gemm_tile.cuh"

struct DgRowMajorA {
    const float* x;
    int k;
    __device__ float operator()(int r, int i) const { return x[(long long) r * k + i]; }
};

extern "C" __global__ void __launch_bounds__(DG_GEMM_THREADS) gemm_f16(const float* x, const __half* w,
                                                                       const __half* bias, float* out, int rows,
                                                                       int n, int k, int epilogue) {
    dg_gemm_tile(DgRowMajorA{x, k}, w, bias, out, rows, n, k, epilogue);
}
