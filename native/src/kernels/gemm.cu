// out = epilogue(x · wᵀ + bias): the linear layers with many rows (the encoder, a prompt).
// x [rows, k] f32, w [n, k] f16 (PyTorch order), out [rows, n] f32. See gemm_tile.cuh.
#include "gemm_tile.cuh"

struct DgRowMajorA {
    const float* x;
    int k;
    __device__ float operator()(int r, int i) const { return x[(long long) r * k + i]; }
    // 16-byte loads: every row start 16-byte aligned.
    __device__ bool vec4() const { return (k % 4) == 0 && (reinterpret_cast<unsigned long long>(x) & 15) == 0; }
    __device__ float4 load4(int r, int i) const { return *reinterpret_cast<const float4*>(x + (long long) r * k + i); }
};

// Grid (ceil(n / 64), ceil(rows / 64)).
extern "C" __global__ void __launch_bounds__(DG_GEMM_THREADS) gemm_f16(const float* x, const __half* w,
                                                                       const __half* bias, float* out, int rows,
                                                                       int n, int k, int epilogue) {
    dg_gemm_tile<64>(DgRowMajorA{x, k}, w, bias, out, rows, n, k, epilogue);
}

// Grid (ceil(n / 128), ceil(rows / 128)): for shapes with enough 128 x 128 tiles to fill the GPU
// (GpuBackend.wideTile); one block per SM, which the tile's registers take anyway.
extern "C" __global__ void __launch_bounds__(DG_GEMM_THREADS, 1) gemm_f16_t128(const float* x, const __half* w,
                                                                               const __half* bias, float* out,
                                                                               int rows, int n, int k,
                                                                               int epilogue) {
    dg_gemm_tile<128>(DgRowMajorA{x, k}, w, bias, out, rows, n, k, epilogue);
}
