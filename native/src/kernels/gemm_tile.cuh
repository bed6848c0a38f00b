// The tiled f32-accumulating GEMM body shared by gemm_f16 and conv1d_gelu_f16:
// out[r][j] = epilogue(sum_i A(r, i) * w[j][i] + bias[j]) for a 64 x 64 tile of out per block.
//
// 256 threads; each k-step stages a 16-wide slice of A (64 x 16, read through the loader, so
// conv1d can read its implicit im2col matrix) and of w (64 x 16 f16, widened to f32 while
// staging) into shared memory, stored k-major so every thread reads its 4 rows and 4 columns as
// one 16-byte load each, then does 16 register-blocked 4 x 4 FMA steps.
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

template <class LoadA>
__device__ __forceinline__ void dg_gemm_tile(const LoadA& loadA, const __half* w, const __half* bias, float* out,
                                             int rows, int n, int k, int epilogue) {
    __shared__ __align__(16) float As[DG_GEMM_BK][DG_GEMM_BM + DG_GEMM_PAD];
    __shared__ __align__(16) float Bs[DG_GEMM_BK][DG_GEMM_BN + DG_GEMM_PAD];

    const int tid = threadIdx.x;
    const int tx = tid % 16; // column group: columns tx*4 .. tx*4+3 of the tile
    const int ty = tid / 16; // row group: rows ty*4 .. ty*4+3
    const int row0 = blockIdx.y * DG_GEMM_BM;
    const int col0 = blockIdx.x * DG_GEMM_BN;

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
