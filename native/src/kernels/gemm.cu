// out = epilogue(x · wᵀ + bias): the linear layers with many rows (the encoder, a prompt).
// x [rows, k] f32, w [n, k] f16 (PyTorch order), out [rows, n] f32. See gemm_tile.cuh.
#include "dg_split.cuh"
#include "gemm_hilo.cuh"
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

// x as the two f16 planes gemm_f16_hilo reads: hi = f16(x), lo = f16(x - hi) (dg_split), each
// [count] halves. Grid-stride; block 256.
extern "C" __global__ void split_f32_hilo(const float* x, __half* hi, __half* lo, long long count) {
    for (long long i = blockIdx.x * (long long) blockDim.x + threadIdx.x; i < count;
         i += (long long) gridDim.x * blockDim.x) {
        __half h, l;
        dg_split(x[i], h, l);
        hi[i] = h;
        lo[i] = l;
    }
}

// x given as its hi and lo planes [rows, k] (split_f32_hilo).
struct DgHiLoA {
    const __half* hi;
    const __half* lo;
    int k;
    __device__ float operator()(int r, int i) const {
        const long long o = (long long) r * k + i;
        return __half2float(hi[o]) + __half2float(lo[o]);
    }
    __device__ bool vec4() const { return false; }
    __device__ float4 load4(int r, int i) const {
        return make_float4((*this)(r, i), (*this)(r, i + 1), (*this)(r, i + 2), (*this)(r, i + 3));
    }
};

// The body of both gemm_f16_hilo entries: on sm_80+ gemm_hilo.cuh; elsewhere (never launched there)
// the 64 x 64 body on each quarter of the 128 x 128 tile.
__device__ __forceinline__ void dg_gemm_hilo_entry(const __half* xhi, const __half* xlo, const __half* w,
                                                   const __half* bias, float* out, int rows, int n, int k,
                                                   int epilogue) {
#if !defined(__HIP__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    dg_gemm_hilo_sm80<true>(xhi, xlo, w, bias, out, rows, n, k, epilogue, blockIdx.y * DG_HILO_TILE,
                            blockIdx.x * DG_HILO_TILE);
#else
    dg_gemm_tile<128>(DgHiLoA{xhi, xlo, k}, w, bias, out, rows, n, k, epilogue);
#endif
}

// The large GEMMs (GpuBackend.wideTile): gemm_f16 of x = hi + lo with a 128 x 128 tile per block,
// grid (ceil(n / 128), ceil(rows / 128)). Preconditions: k % 8 == 0; hi, lo and w 16-byte aligned.
extern "C" __global__ void __launch_bounds__(DG_GEMM_THREADS, 1) gemm_f16_hilo(
        const __half* xhi, const __half* xlo, const __half* w, const __half* bias, float* out, int rows, int n,
        int k, int epilogue) {
    dg_gemm_hilo_entry(xhi, xlo, w, bias, out, rows, n, k, epilogue);
}

// The same with two blocks per SM (registers capped at 128: a few bytes of spills), for GEMMs with
// at least two 128 x 128 tiles per SM (the MLP's first layer: 1500 x 5120 is 480 tiles), where a
// second block keeps the tensor cores busy through the first one's barriers; with fewer tiles the
// cap only costs (GpuBackend.hiloTwoPerSm).
extern "C" __global__ void __launch_bounds__(DG_GEMM_THREADS, 2) gemm_f16_hilo_2blk(
        const __half* xhi, const __half* xlo, const __half* w, const __half* bias, float* out, int rows, int n,
        int k, int epilogue) {
    dg_gemm_hilo_entry(xhi, xlo, w, bias, out, rows, n, k, epilogue);
}
