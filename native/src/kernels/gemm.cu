// out = epilogue(x · wᵀ + bias): the linear layers with many rows (the encoder, a prompt).
// x [rows, k] f32, w [n, k] f16 (PyTorch order), out [rows, n] f32. See gemm_tile.cuh.
#include "dg_split.cuh"
#include "gemm_hilo.cuh"
#include "gemm_hilo_pipe.cuh"
#include "gemm_tile.cuh"
#include "gemm_tile_portable_8x8.cuh"

struct DgRowMajorA {
    const float* x;
    int k;
    __device__ float operator()(int r, int i) const { return x[(long long) r * k + i]; }
    // 16-byte loads: every row start 16-byte aligned.
    __device__ bool vec4() const { return (k % 4) == 0 && (reinterpret_cast<unsigned long long>(x) & 15) == 0; }
    __device__ float4 load4(int r, int i) const { return *reinterpret_cast<const float4*>(x + (long long) r * k + i); }
};

// Grid (ceil(n / DG_GEMM_F16_TILE), ceil(rows / DG_GEMM_F16_TILE)): 64 on NVIDIA, 128 on AMD.
extern "C" __global__ void __launch_bounds__(DG_GEMM_THREADS) gemm_f16(const float* x, const __half* w,
                                                                       const __half* bias, float* out, int rows,
                                                                       int n, int k, int epilogue) {
    dg_gemm_f16_tile(DgRowMajorA{x, k}, w, bias, out, rows, n, k, epilogue);
}

// Two halves as one 32-bit word, a in the low half (its lower address).
__device__ __forceinline__ unsigned dg_pack_halves(__half a, __half b) {
    return (unsigned) __half_as_ushort(a) | ((unsigned) __half_as_ushort(b) << 16);
}

// x as the two f16 planes gemm_f16_hilo reads: hi = f16(x), lo = f16(x - hi) (dg_split), each
// [count] halves. Grid-stride over quads (4 elements): a 16-byte load of x and an 8-byte store to each
// plane where x is 16-byte aligned and the planes 8-byte aligned (the backend's: count % 4 == 0), so a
// warp moves 512 bytes in and 2 x 256 out per step instead of 128 and 2 x 64 (the pass is pure memory
// traffic: 8 bytes per element); else element by element. Block 256, grid min(ceil(count / 1024), 65535).
extern "C" __global__ void split_f32_hilo(const float* x, __half* hi, __half* lo, long long count) {
    const long long quads = (count + 3) / 4;
    const bool vec = (reinterpret_cast<unsigned long long>(x) & 15) == 0 &&
                     (reinterpret_cast<unsigned long long>(hi) & 7) == 0 &&
                     (reinterpret_cast<unsigned long long>(lo) & 7) == 0;
    for (long long q = blockIdx.x * (long long) blockDim.x + threadIdx.x; q < quads;
         q += (long long) gridDim.x * blockDim.x) {
        const long long i = 4 * q;
        if (vec && i + 4 <= count) {
            const float4 v = *reinterpret_cast<const float4*>(x + i);
            __half h[4], l[4];
            dg_split(v.x, h[0], l[0]);
            dg_split(v.y, h[1], l[1]);
            dg_split(v.z, h[2], l[2]);
            dg_split(v.w, h[3], l[3]);
            *reinterpret_cast<uint2*>(hi + i) = make_uint2(dg_pack_halves(h[0], h[1]), dg_pack_halves(h[2], h[3]));
            *reinterpret_cast<uint2*>(lo + i) = make_uint2(dg_pack_halves(l[0], l[1]), dg_pack_halves(l[2], l[3]));
        } else {
            for (long long e = i; e < i + 4 && e < count; e++) {
                __half h, l;
                dg_split(x[e], h, l);
                hi[e] = h;
                lo[e] = l;
            }
        }
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

// The large GEMMs (KernelChoice.wideTile): gemm_f16 of x = hi + lo with a 128 x 128 tile per block,
// grid (ceil(n / 128), ceil(rows / 128)). Preconditions: k % 8 == 0; hi, lo and w 16-byte aligned.
extern "C" __global__ void __launch_bounds__(DG_GEMM_THREADS, 1) gemm_f16_hilo(
        const __half* xhi, const __half* xlo, const __half* w, const __half* bias, float* out, int rows, int n,
        int k, int epilogue) {
    dg_gemm_hilo_entry(xhi, xlo, w, bias, out, rows, n, k, epilogue);
}

// The same with two blocks per SM (registers capped at 128: a few bytes of spills), for GEMMs with
// at least two 128 x 128 tiles per SM (the MLP's first layer: 1500 x 5120 is 480 tiles), where a
// second block keeps the tensor cores busy through the first one's barriers; with fewer tiles the
// cap only costs (KernelChoice.hiloTwoPerSm).
extern "C" __global__ void __launch_bounds__(DG_GEMM_THREADS, 2) gemm_f16_hilo_2blk(
        const __half* xhi, const __half* xlo, const __half* w, const __half* bias, float* out, int rows, int n,
        int k, int epilogue) {
    dg_gemm_hilo_entry(xhi, xlo, w, bias, out, rows, n, k, epilogue);
}

// The deep-pipeline entries' body (gemm_hilo_pipe.cuh): x = hi + lo as gemm_f16_hilo, S k-slices in
// dynamic shared memory (dg_hilo_pipe_shared bytes, above the 48 KiB default: Kernel.launch opts in),
// so only for devices whose opt-in maximum holds them (KernelChoice.hiloKernel). Elsewhere (never
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

// The product's deep-pipeline entry, the measured best (kernel_bench on an H100, 2026-11-26 22:18, split
// included, against gemm_f16_hilo): 1500 x 1280 x 1280 0.056 -> 0.047 ms, x 3840 0.147 -> 0.124,
// x 5120 0.240 -> 0.179; a 128 x 128 tile, 8 warps of 64 x 32, 4 stages of two 32-wide k-slices each
// (192 KiB of dynamic shared memory, one block per SM: sm_90's opt-in only), each slice summed apart.
// Grid (ceil(n / 128), ceil(rows / 128)), block 256, dynamic shared dg_hilo_pipe_shared_ks(128, 128, 4, 2);
// preconditions as gemm_f16_hilo.
extern "C" __global__ void __launch_bounds__(DG_GEMM_THREADS, 1) gemm_f16_hilo_pipe(
        const __half* xhi, const __half* xlo, const __half* w, const __half* bias, float* out, int rows, int n,
        int k, int epilogue) {
    dg_hilo_pipe_entry<128, 128, 2, 4, 4, 2>(xhi, xlo, w, bias, out, rows, n, k, epilogue);
}
