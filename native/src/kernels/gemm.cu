// out = epilogue(x · wᵀ + bias): the linear layers with many rows (the encoder, a prompt).
// x [rows, k] f32, w [n, k] f16 (PyTorch order), out [rows, n] f32. See gemm_tile.cuh.
#include "dg_split.cuh"
#include "gemm_hilo.cuh"
#include "gemm_hilo_pipe.cuh"
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

// The deep-pipeline entries' body (gemm_hilo_pipe.cuh): x = hi + lo as gemm_f16_hilo, S k-slices in
// dynamic shared memory (dg_hilo_pipe_shared bytes, above the 48 KiB default: Kernel.launch opts in),
// so only for devices whose opt-in maximum holds them (GpuBackend.hiloKernel). Elsewhere (never
// launched there; every entry must still build for every target) the 64 x 64 body covers the tile.
template <int BM, int BN, int WM, int WN, int S, int KS = 1>
__device__ __forceinline__ void dg_hilo_pipe_entry(const __half* xhi, const __half* xlo, const __half* w,
                                                   const __half* bias, float* out, int rows, int n, int k,
                                                   int epilogue) {
    static_assert(WM * WN * 32 == DG_GEMM_THREADS, "blocks of 256");
#if !defined(__HIP__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    extern __shared__ __align__(128) __half dg_hilo_pipe_sm[];
    dg_gemm_hilo_pipe<BM, BN, WM, WN, S, KS>(xhi, xlo, w, bias, out, rows, n, k, epilogue, dg_hilo_pipe_sm);
#else
    const DgHiLoA a{xhi, xlo, k};
    for (int p = 0; p < (BM / 64) * (BN / 64); p++) { // uniform per block: the barriers inside hold
        const int r0 = blockIdx.y * BM + 64 * (p / (BN / 64));
        const int c0 = blockIdx.x * BN + 64 * (p % (BN / 64));
        if (r0 < rows && c0 < n) {
            dg_gemm_tile64(a, w, bias, out, rows, n, k, epilogue, r0, c0);
        }
    }
#endif
}

// The product's deep-pipeline entries, grid (ceil(n / BN), ceil(rows / 128)), block 256, dynamic shared
// memory dg_hilo_pipe_shared(128, BN, 4); preconditions as gemm_f16_hilo.
// 128 x 128 tile, 8 warps of 64 x 32, 4 stages (96 KiB), one block per SM.
extern "C" __global__ void __launch_bounds__(DG_GEMM_THREADS, 1) gemm_f16_hilo_pipe(
        const __half* xhi, const __half* xlo, const __half* w, const __half* bias, float* out, int rows, int n,
        int k, int epilogue) {
    dg_hilo_pipe_entry<128, 128, 2, 4, 4>(xhi, xlo, w, bias, out, rows, n, k, epilogue);
}

// 128 x 64 tile, 8 warps of 32 x 32, 4 stages (80 KiB), two blocks per SM (128 registers, no spills):
// twice the blocks of the 128 x 128 tile, 16 warps per SM to hide each other's latencies.
extern "C" __global__ void __launch_bounds__(DG_GEMM_THREADS, 2) gemm_f16_hilo_pipe_n64(
        const __half* xhi, const __half* xlo, const __half* w, const __half* bias, float* out, int rows, int n,
        int k, int epilogue) {
    dg_hilo_pipe_entry<128, 64, 4, 2, 4>(xhi, xlo, w, bias, out, rows, n, k, epilogue);
}

// 64 x 64 tile, 8 warps of 32 x 16, 4 stages (48 KiB), three blocks per SM: for shapes with too few
// 128 x 64 tiles to fill the GPU (tiny's and small's d_model outputs: 1500 x 384 is 144 of these).
extern "C" __global__ void __launch_bounds__(DG_GEMM_THREADS, 3) gemm_f16_hilo_pipe_64(
        const __half* xhi, const __half* xlo, const __half* w, const __half* bias, float* out, int rows, int n,
        int k, int epilogue) {
    dg_hilo_pipe_entry<64, 64, 2, 4, 4>(xhi, xlo, w, bias, out, rows, n, k, epilogue);
}
