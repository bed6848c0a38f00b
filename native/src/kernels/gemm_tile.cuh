// The tiled f32-accumulating GEMM body shared by gemm_f16 and conv1d_gelu_f16:
// out[r][j] = epilogue(sum_i A(r, i) * w[j][i] + bias[j]) for one tile of out per block (the tile's
// corner row0, col0 is given by the entry point), 256 threads, A read through a loader (so conv1d can
// read its implicit im2col matrix).
//
// One source, three bodies chosen per target at build time (same ABI):
// - NVIDIA sm_80+ (the cubins, compiled from compute_80 PTX): dg_gemm_tile_sm80, a BM x BN tile
//   (64 x 64 for gemm_f16 and conv1d) as 8 warps of 2 x 4, each a BM/2 x BN/4 piece made of
//   m16n8k16 mmas. Per 32-wide k-slice: A (f32) comes through registers, one slice ahead, and is
//   split into f16 hi/lo halves in shared memory; w (f16 as stored) comes by cp.async into one of
//   two shared buffers, one slice ahead. Rows are padded by 8 halves (conflict-free ldmatrix).
//   The large encoder GEMMs use gemm_hilo.cuh's 128 x 128 tile instead.
// - NVIDIA sm_75 (the compute_75 PTX, JIT-compiled where no cubin fits): dg_gemm_tile_sm75, the
//   64 x 64 tile of m16n8k8 mmas with the next slice's loads in registers.
//   Both NVIDIA bodies do two mmas per product (hi and lo of A): f32-like accuracy on tensor cores.
// - AMD (hipcc; gfx10 has no matrix cores): f32 FMA, each k-step stages a 16-wide slice of A and
//   of w (f16 widened to f32 while staging), stored k-major so every thread reads its 4 rows and
//   4 columns as one 16-byte load each, then 16 register-blocked 4 x 4 FMA steps.
// dg_gemm_tile<128> on a body whose tile is 64 x 64 (sm_75, AMD) covers its 128 x 128 tile as four.
#pragma once
#include "dictum_gpu.h"

#define DG_GEMM_BM 64
#define DG_GEMM_BN 64
#define DG_GEMM_BK 16
#define DG_GEMM_THREADS 256
// Shared rows padded by 4 floats: keeps float4 alignment and spreads the staging stores.
#define DG_GEMM_PAD 4

// epilogue codes, as the ABI: 0 store, 1 exact GELU then store, 2 add into out
#define DG_EPI_NONE 0
#define DG_EPI_GELU 1
#define DG_EPI_ADD 2

#if !defined(__HIP__)
#if !defined(DG_EMU_MMA) // the CPU emulation (native/src/test/emu/mma_emu.h) brings its own
#include "dg_mma.cuh"
#include "dg_mma_sm80.cuh"
#endif
#include "gemm_load_sm80.cuh"

__device__ __forceinline__ void dg_gemm_store(float* out, int rows, int n, int r, int c, float v, const __half* bias,
                                              int epilogue) {
    if (r >= rows || c >= n) {
        return;
    }
    v += bias ? __half2float(bias[c]) : 0.0f;
    float* o = out + (long long) r * n + c;
    if (epilogue == DG_EPI_GELU) {
        *o = dg_gelu(v);
    } else if (epilogue == DG_EPI_ADD) {
        *o += v;
    } else {
        *o = v;
    }
}

// The accumulators of a warp's 2 x 2 blocks of 16 x 8.
__device__ __forceinline__ void dg_mma_zero(float (&a)[2][2][4]) {
#pragma unroll
    for (int e = 0; e < 16; e++) {
        (&a[0][0][0])[e] = 0.0f;
    }
}

__device__ __forceinline__ void dg_mma_add(float (&a)[2][2][4], const float (&b)[2][2][4]) {
#pragma unroll
    for (int e = 0; e < 16; e++) {
        (&a[0][0][0])[e] += (&b[0][0][0])[e];
    }
}

#define DG_MMA_BK 32
#define DG_MMA_LD (DG_MMA_BK + 8) // halves per shared row: 20 words, so 8 rows x 4 lanes hit 32 banks

template <class LoadA>
__device__ __forceinline__ void dg_gemm_tile64(const LoadA& loadA, const __half* w, const __half* bias, float* out,
                                               int rows, int n, int k, int epilogue, int row0, int col0) {
    __shared__ __align__(16) __half Ahi[DG_GEMM_BM][DG_MMA_LD];
    __shared__ __align__(16) __half Alo[DG_GEMM_BM][DG_MMA_LD];
    __shared__ __align__(16) __half Bs[DG_GEMM_BN][DG_MMA_LD];

    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int g = lane >> 2;
    const int t = lane & 3;
    const int wm = (warp >> 2) * 32; // the warp's rows within the tile
    const int wn = (warp & 3) * 16;  // and columns
    // 16-byte loads of w when every row start is 16-byte aligned.
    const bool wVec = (k % 8) == 0 && (reinterpret_cast<unsigned long long>(w) & 15) == 0;

    float acc[2][2][4]; // the warp's 2 x 2 mma blocks
    dg_mma_zero(acc);

    // Staging registers: 8 values of A (row e / 32, k e % 32 for e = tid + 256 s: a warp reads 32
    // consecutive k of one row) and 8 halves of w (row tid / 4, k 8 (tid % 4) .. + 7).
    float aReg[8];
    __half bReg[8];
    auto load = [&](int k0) {
#pragma unroll
        for (int s = 0; s < 4; s++) {
            const int e = tid + s * DG_GEMM_THREADS; // pair e: row e / 16, k 2 (e % 16), +1
            const int r = row0 + e / (DG_MMA_BK / 2);
            const int gk = k0 + 2 * (e % (DG_MMA_BK / 2));
            aReg[2 * s] = (r < rows && gk < k) ? loadA(r, gk) : 0.0f;
            aReg[2 * s + 1] = (r < rows && gk + 1 < k) ? loadA(r, gk + 1) : 0.0f;
        }
        const int c = col0 + tid / 4;
        const int kb = k0 + 8 * (tid % 4);
        if (wVec && c < n && kb + 8 <= k) {
            const uint4 v = *reinterpret_cast<const uint4*>(w + (long long) c * k + kb);
            *reinterpret_cast<uint4*>(bReg) = v;
        } else {
#pragma unroll
            for (int i = 0; i < 8; i++) {
                bReg[i] = (c < n && kb + i < k) ? w[(long long) c * k + kb + i] : __float2half_rn(0.0f);
            }
        }
    };

    load(0);
    for (int k0 = 0; k0 < k; k0 += DG_MMA_BK) {
#pragma unroll
        for (int s = 0; s < 4; s++) {
            const int e = tid + s * DG_GEMM_THREADS;
            unsigned hi, lo;
            dg_split2(aReg[2 * s], aReg[2 * s + 1], hi, lo);
            *reinterpret_cast<unsigned*>(&Ahi[e / (DG_MMA_BK / 2)][2 * (e % (DG_MMA_BK / 2))]) = hi;
            *reinterpret_cast<unsigned*>(&Alo[e / (DG_MMA_BK / 2)][2 * (e % (DG_MMA_BK / 2))]) = lo;
        }
        *reinterpret_cast<uint4*>(&Bs[tid / 4][8 * (tid % 4)]) = *reinterpret_cast<const uint4*>(bReg);
        __syncthreads();
        if (k0 + DG_MMA_BK < k) {
            load(k0 + DG_MMA_BK); // in flight while the tensor cores work on this slice
        }
        // The slice's products go to a fresh accumulator that is then added to acc in f32: the
        // tensor cores' own accumulation truncates (no round to nearest), so letting it run over
        // the whole k drifts by ~k/8 ulps (1.8e-5 at k 3840); one f32 add per 32 k keeps it RN.
        float part[2][2][4];
        dg_mma_zero(part);
        // Fragments by ldmatrix: for A, matrices (rows +0, k +0), (rows +8, k +0), (rows +0, k +8),
        // (rows +8, k +8) are the a0/a1 of two k-steps; for w, (n +0, k +0/8/16/24) the b0 of all four.
        const int lr = lane & 7;
        const int lm = lane >> 3;
        unsigned b[2][4];
#pragma unroll
        for (int j = 0; j < 2; j++) {
            dg_ldmatrix_x4(b[j], &Bs[wn + 8 * j + lr][8 * lm]);
        }
#pragma unroll
        for (int kk = 0; kk < DG_MMA_BK; kk += 16) {
            unsigned ah[2][4], al[2][4];
#pragma unroll
            for (int i = 0; i < 2; i++) {
                const int r = wm + 16 * i + lr + 8 * (lm & 1);
                const int c = kk + 8 * (lm >> 1);
                dg_ldmatrix_x4(ah[i], &Ahi[r][c]);
                dg_ldmatrix_x4(al[i], &Alo[r][c]);
            }
#pragma unroll
            for (int h = 0; h < 2; h++) { // the two k-steps of this pair
#pragma unroll
                for (int i = 0; i < 2; i++) {
#pragma unroll
                    for (int j = 0; j < 2; j++) {
                        const unsigned bj = b[j][kk / 8 + h];
                        dg_mma_16x8x8(part[i][j], al[i][2 * h], al[i][2 * h + 1], bj);
                        dg_mma_16x8x8(part[i][j], ah[i][2 * h], ah[i][2 * h + 1], bj);
                    }
                }
            }
        }
        dg_mma_add(acc, part);
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < 2; i++) {
#pragma unroll
        for (int j = 0; j < 2; j++) {
            const int r = row0 + wm + 16 * i + g;
            const int c = col0 + wn + 8 * j + 2 * t;
            dg_gemm_store(out, rows, n, r, c, acc[i][j][0], bias, epilogue);
            dg_gemm_store(out, rows, n, r, c + 1, acc[i][j][1], bias, epilogue);
            dg_gemm_store(out, rows, n, r + 8, c, acc[i][j][2], bias, epilogue);
            dg_gemm_store(out, rows, n, r + 8, c + 1, acc[i][j][3], bias, epilogue);
        }
    }
}


#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
// Two stores of one row (columns c, c + 1) as one 8-byte access where the row layout allows it.
__device__ __forceinline__ void dg_gemm_store2(float* out, int rows, int n, int r, int c, float v0, float v1,
                                               const __half* bias, int epilogue, bool pairs) {
    if (r >= rows || c >= n) {
        return;
    }
    if (!pairs || c + 1 >= n) {
        dg_gemm_store(out, rows, n, r, c, v0, bias, epilogue);
        dg_gemm_store(out, rows, n, r, c + 1, v1, bias, epilogue);
        return;
    }
    if (bias) {
        v0 += __half2float(bias[c]);
        v1 += __half2float(bias[c + 1]);
    }
    float2* o = reinterpret_cast<float2*>(out + (long long) r * n + c);
    if (epilogue == DG_EPI_GELU) {
        *o = make_float2(dg_gelu(v0), dg_gelu(v1));
    } else if (epilogue == DG_EPI_ADD) {
        const float2 old = *o;
        *o = make_float2(old.x + v0, old.y + v1);
    } else {
        *o = make_float2(v0, v1);
    }
}

// A warp's MI x NJ blocks of m16n8 accumulators (C layout: c0, c1 at row g, columns 2t, 2t + 1;
// c2, c3 eight rows below) stored through the epilogue, the warp's piece starting at (r0, c0).
template <int MI, int NJ>
__device__ __forceinline__ void dg_gemm_store_warp(const float (&acc)[MI][NJ][4], float* out, int rows, int n,
                                                   int r0, int c0, const __half* bias, int epilogue, bool pairs) {
    const int lane = threadIdx.x & 31;
    const int g = lane >> 2;
    const int t = lane & 3;
#pragma unroll
    for (int i = 0; i < MI; i++) {
#pragma unroll
        for (int j = 0; j < NJ; j++) {
            const int r = r0 + 16 * i + g;
            const int c = c0 + 8 * j + 2 * t;
            dg_gemm_store2(out, rows, n, r, c, acc[i][j][0], acc[i][j][1], bias, epilogue, pairs);
            dg_gemm_store2(out, rows, n, r + 8, c, acc[i][j][2], acc[i][j][3], bias, epilogue, pairs);
        }
    }
}

template <int BM, int BN, class LoadA>
__device__ __forceinline__ void dg_gemm_tile_sm80(const LoadA& loadA, const __half* w, const __half* bias,
                                                  float* out, int rows, int n, int k, int epilogue, int row0,
                                                  int col0) {
    constexpr int BK = DG_MMA_BK; // 32: two k16 steps per slice
    constexpr int LD = DG_MMA_LD; // 40 halves per shared row
    constexpr int WM = BM / 2;    // the warp's rows: 64 or 32
    constexpr int WN = BN / 4;    // and columns: 32 or 16
    constexpr int MI = WM / 16;   // m16 blocks per warp
    constexpr int NJ = WN / 8;    // n8 blocks per warp
    constexpr int AV = BM * BK / 4 / DG_GEMM_THREADS; // float4s of A per thread per slice
    constexpr int BV = BN * BK / 8 / DG_GEMM_THREADS; // 16-byte pieces of w per thread per slice
    static_assert(AV >= 1 && BV >= 1, "tile too small for 256 threads");
    __shared__ __align__(16) __half Ahi[BM][LD];
    __shared__ __align__(16) __half Alo[BM][LD];
    __shared__ __align__(16) __half Bs[2][BN][LD];

    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int lr = lane & 7;
    const int lm = lane >> 3;
    const int wm = (warp >> 2) * WM;
    const int wn = (warp & 3) * WN;
    // cp.async of 16-byte pieces of w when every row start is 16-byte aligned; 16-byte loads of A
    // when the loader can (a plain row-major matrix with aligned rows).
    const bool wVec = (k % 8) == 0 && (reinterpret_cast<unsigned long long>(w) & 15) == 0;
    const bool aVec = loadA.vec4();
    const bool pairs = (n % 2) == 0 && (reinterpret_cast<unsigned long long>(out) & 7) == 0;

    // A: float4 v of the slice is row v / 8, k 4 (v % 8) .. + 3 (8 threads read a row's 128 bytes).
    float4 aReg[AV];
    auto loadASlice = [&](int k0) {
#pragma unroll
        for (int s = 0; s < AV; s++) {
            const int e = tid + s * DG_GEMM_THREADS;
            const int r = row0 + e / (BK / 4);
            const int gk = k0 + 4 * (e % (BK / 4));
            if (aVec && r < rows && gk + 4 <= k) {
                aReg[s] = loadA.load4(r, gk);
            } else {
                aReg[s].x = (r < rows && gk < k) ? loadA(r, gk) : 0.0f;
                aReg[s].y = (r < rows && gk + 1 < k) ? loadA(r, gk + 1) : 0.0f;
                aReg[s].z = (r < rows && gk + 2 < k) ? loadA(r, gk + 2) : 0.0f;
                aReg[s].w = (r < rows && gk + 3 < k) ? loadA(r, gk + 3) : 0.0f;
            }
        }
    };
    auto storeASlice = [&]() {
#pragma unroll
        for (int s = 0; s < AV; s++) {
            const int e = tid + s * DG_GEMM_THREADS;
            uint2 hi, lo;
            dg_split2(aReg[s].x, aReg[s].y, hi.x, lo.x);
            dg_split2(aReg[s].z, aReg[s].w, hi.y, lo.y);
            *reinterpret_cast<uint2*>(&Ahi[e / (BK / 4)][4 * (e % (BK / 4))]) = hi;
            *reinterpret_cast<uint2*>(&Alo[e / (BK / 4)][4 * (e % (BK / 4))]) = lo;
        }
    };
    // w: piece v of the slice is column v / 4, k 8 (v % 4) .. + 7. Out of range reads as zeros
    // (cp.async with 0 source bytes fills the 16 bytes with zeros).
    auto loadBSlice = [&](int k0, int buf) {
#pragma unroll
        for (int s = 0; s < BV; s++) {
            const int e = tid + s * DG_GEMM_THREADS;
            const int cl = e / (BK / 8);
            const int kb = 8 * (e % (BK / 8));
            const int c = col0 + cl;
            const int gk = k0 + kb;
            __half* dst = &Bs[buf][cl][kb];
            if (wVec) {
                const bool in = c < n && gk < k;
                dg_cp_async16_tile(dst, w, c, k, gk, in);
            } else {
#pragma unroll
                for (int i = 0; i < 8; i++) {
                    dst[i] = (c < n && gk + i < k) ? w[(long long) c * k + gk + i] : __float2half_rn(0.0f);
                }
            }
        }
        dg_cp_async_commit();
    };

    float acc[MI][NJ][4];
    dg_acc_zero<MI * NJ * 4>(&acc[0][0][0]);

    const int slices = (k + BK - 1) / BK;
    loadASlice(0);
    loadBSlice(0, 0);
    for (int s = 0; s < slices; s++) {
        storeASlice();
        if (s + 1 < slices) {
            loadBSlice((s + 1) * BK, (s + 1) & 1); // the buffer the previous slice's mmas are done with
            dg_cp_async_wait<1>();                  // this slice's w has landed
        } else {
            dg_cp_async_wait<0>();
        }
        __syncthreads();
        if (s + 1 < slices) {
            loadASlice((s + 1) * BK); // in flight while the tensor cores work on this slice
        }
        const int buf = s & 1;
        // w fragments for the whole slice: per n8 block, ldmatrix.x4 of (n +0..7, k +0/8/16/24):
        // registers 0, 1 are the b0, b1 of the first k16 step, 2, 3 of the second.
        unsigned b[NJ][4];
#pragma unroll
        for (int j = 0; j < NJ; j++) {
            dg_ldmatrix_x4(b[j], &Bs[buf][wn + 8 * j + lr][8 * lm]);
        }
#pragma unroll
        for (int i = 0; i < MI; i++) {
            // Each m16 block's slice is summed apart and added to acc in f32 (the tensor cores'
            // accumulation truncates; see the sm_75 body).
            float part[NJ][4];
            dg_acc_zero<NJ * 4>(&part[0][0]);
#pragma unroll
            for (int kk = 0; kk < BK; kk += 16) {
                // A fragment (16 x 16): matrices (rows +0, k +0), (rows +8, k +0), (rows +0, k +8),
                // (rows +8, k +8) are a0..a3.
                const int r = wm + 16 * i + lr + 8 * (lm & 1);
                const int c = kk + 8 * (lm >> 1);
                unsigned ah[4], al[4];
                dg_ldmatrix_x4(ah, &Ahi[r][c]);
                dg_ldmatrix_x4(al, &Alo[r][c]);
#pragma unroll
                for (int j = 0; j < NJ; j++) {
                    dg_mma_16x8x16(part[j], al, b[j][kk / 8], b[j][kk / 8 + 1]);
                    dg_mma_16x8x16(part[j], ah, b[j][kk / 8], b[j][kk / 8 + 1]);
                }
            }
            dg_acc_add<NJ * 4>(&acc[i][0][0], &part[0][0]);
        }
        __syncthreads();
    }

    dg_gemm_store_warp<MI, NJ>(acc, out, rows, n, row0 + wm, col0 + wn, bias, epilogue, pairs);
}
#endif

#else // HIP: f32 FMA tiles

template <class LoadA>
__device__ __forceinline__ void dg_gemm_tile64(const LoadA& loadA, const __half* w, const __half* bias, float* out,
                                               int rows, int n, int k, int epilogue, int row0, int col0) {
    __shared__ __align__(16) float As[DG_GEMM_BK][DG_GEMM_BM + DG_GEMM_PAD];
    __shared__ __align__(16) float Bs[DG_GEMM_BK][DG_GEMM_BN + DG_GEMM_PAD];

    const int tid = threadIdx.x;
    const int tx = tid % 16; // column group: columns tx*4 .. tx*4+3 of the tile
    const int ty = tid / 16; // row group: rows ty*4 .. ty*4+3

    float acc[4][4];
#pragma unroll
    for (int i = 0; i < 4; i++) {
#pragma unroll
        for (int j = 0; j < 4; j++) {
            acc[i][j] = 0.0f;
        }
    }

    for (int k0 = 0; k0 < k; k0 += DG_GEMM_BK) {
        // Stage: element e of the 64 x 16 slice is (e / 16, e % 16); 16 consecutive threads read
        // 16 consecutive k of one row.
#pragma unroll
        for (int s = 0; s < (DG_GEMM_BM * DG_GEMM_BK) / DG_GEMM_THREADS; s++) {
            const int e = tid + s * DG_GEMM_THREADS;
            const int r = e / DG_GEMM_BK;
            const int kk = e % DG_GEMM_BK;
            const int gk = k0 + kk;
            const int gr = row0 + r;
            const int gc = col0 + r;
            As[kk][r] = (gr < rows && gk < k) ? loadA(gr, gk) : 0.0f;
            Bs[kk][r] = (gc < n && gk < k) ? __half2float(w[(long long) gc * k + gk]) : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < DG_GEMM_BK; kk++) {
            const float4 a = *reinterpret_cast<const float4*>(&As[kk][ty * 4]);
            const float4 b = *reinterpret_cast<const float4*>(&Bs[kk][tx * 4]);
            const float av[4] = {a.x, a.y, a.z, a.w};
            const float bv[4] = {b.x, b.y, b.z, b.w};
#pragma unroll
            for (int i = 0; i < 4; i++) {
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
                }
            }
        }
        __syncthreads();
    }

#pragma unroll
    for (int j = 0; j < 4; j++) {
        const int c = col0 + tx * 4 + j;
        if (c >= n) {
            continue;
        }
        const float b = bias ? __half2float(bias[c]) : 0.0f;
#pragma unroll
        for (int i = 0; i < 4; i++) {
            const int r = row0 + ty * 4 + i;
            if (r >= rows) {
                continue;
            }
            const float v = acc[i][j] + b;
            float* o = out + (long long) r * n + c;
            if (epilogue == DG_EPI_GELU) {
                *o = dg_gelu(v);
            } else if (epilogue == DG_EPI_ADD) {
                *o += v;
            } else {
                *o = v;
            }
        }
    }
}
#endif

// The entry points' tile: TILE x TILE (64 or 128) at (blockIdx.y, blockIdx.x) * TILE.
template <int TILE, class LoadA>
__device__ __forceinline__ void dg_gemm_tile(const LoadA& loadA, const __half* w, const __half* bias, float* out,
                                             int rows, int n, int k, int epilogue) {
    const int row0 = blockIdx.y * TILE;
    const int col0 = blockIdx.x * TILE;
#if !defined(__HIP__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    dg_gemm_tile_sm80<TILE, TILE, LoadA>(loadA, w, bias, out, rows, n, k, epilogue, row0, col0);
#else
    constexpr int q = TILE / 64; // 64 x 64 pieces per side (uniform per block: the barriers inside hold)
#pragma unroll
    for (int p = 0; p < q * q; p++) {
        const int r0 = row0 + 64 * (p / q);
        const int c0 = col0 + 64 * (p % q);
        if (r0 < rows && c0 < n) {
            dg_gemm_tile64(loadA, w, bias, out, rows, n, k, epilogue, r0, c0);
        }
    }
#endif
}
