// The portable (AMD) GEMM body of gemm_f16 and conv1d_gelu_f16 (issue 22 item 2): f32 FMA, a
// 128 x 128 tile of out per block of 256 lanes, 8 x 8 outputs per lane, 16-wide k-slices in two LDS
// buffers (one barrier per slice). Same contract as gemm_tile.cuh's bodies:
// out[r][j] = epilogue(sum_i A(r, i) * w[j][i] + bias[j]), f32 accumulation in k order per output.
//
// Why this shape (gfx1010: 64 FMA lanes and 128 bytes of LDS per clock per CU):
// - Per k-step a lane reads its 8 rows of A and 8 columns of w as four 16-byte LDS reads (64 bytes)
//   for 64 FMAs: 1 byte of LDS per FMA, half the LDS rate (the 64 x 64 tile's 4 x 4 read 2, exactly
//   the rate, so LDS capped it).
// - The lane's 8 rows are two groups of 4, 64 apart (rows 4 ty .. + 3 and 64 + 4 ty .. + 3), and
//   likewise its columns (tx): the 16 lanes of one ty read 16 consecutive float4s of w's slice (256
//   contiguous bytes, no bank conflict) and one float4 of A's (a broadcast).
// - Both operands are stored k-major as f32 (w widened from f16 while staging, once per element,
//   not per FMA), rows padded by 4 floats (float4 alignment kept).
// - The next slice's global loads (A: two 16-byte loads per lane, w: one) are issued before this
//   slice's FMAs and stored into the other buffer after them.
// - 64 accumulators, 32 operands (this k-step's and the next one's), 16 staging registers: 133 VGPRs
//   and no scratch on gfx1010, 6 waves per SIMD (Gfx1010MetadataTest).
// Edges: rows, columns and k past the matrix read as zeros and outputs past it are not written; the
// 16-byte paths only where the loader says rows are 16-byte aligned (LoadA::vec4), w's rows are
// (k % 8 == 0, w aligned) and out's are (n % 4 == 0, out aligned).
//
// Built for every AMD target, and for NVIDIA as the test-only module gemm_portable
// (-DDG_GEMM_PORTABLE; build-kernels.sh TEST_MODULES) so that GpuOpsTest runs this very body on a
// CUDA device. The launch: grid (ceil(n / DG_GEMM_F16_TILE), ceil(rows / DG_GEMM_F16_TILE)), block 256
// (GpuBackend.gemmTile).
#pragma once
#include "gemm_tile.cuh"

#define DG_P8_TILE 128
#define DG_P8_BK 16
#define DG_P8_LD (DG_P8_TILE + 4)
#define DG_P8_BUF ((DG_P8_BK + 1) * DG_P8_LD) // floats per LDS buffer of one operand
// Whether step kk + 1's fragments are read during step kk's FMAs. Not on gfx11, where LLVM 15 holds
// the body to 128 VGPRs (8 waves per SIMD) and the 16 registers more spill.
#if defined(__gfx1100__) || defined(__gfx1101__) || defined(__gfx1102__)
#define DG_P8_AHEAD 0
#else
#define DG_P8_AHEAD 1
#endif
#ifndef DG_EMU_POISON_SHARED
#define DG_EMU_POISON_SHARED(array)
#endif

// out[r][c .. c + 3] = epilogue(v + bias), columns past n skipped; one 16-byte access where allowed.
__device__ __forceinline__ void dg_p8_store4(float* out, int n, int r, int c, float v0, float v1, float v2, float v3,
                                             const __half* bias, int epilogue, bool vecOut) {
    float v[4] = {v0, v1, v2, v3};
    const int m = n - c < 4 ? n - c : 4;
#pragma unroll
    for (int j = 0; j < 4; j++) {
        if (j < m) {
            v[j] += bias ? __half2float(bias[c + j]) : 0.0f;
        }
    }
    float* o = out + (long long) r * n + c;
    if (vecOut && m == 4) {
        float4* o4 = reinterpret_cast<float4*>(o);
        if (epilogue == DG_EPI_GELU) {
            *o4 = make_float4(dg_gelu(v[0]), dg_gelu(v[1]), dg_gelu(v[2]), dg_gelu(v[3]));
        } else if (epilogue == DG_EPI_ADD) {
            const float4 old = *o4;
            *o4 = make_float4(old.x + v[0], old.y + v[1], old.z + v[2], old.w + v[3]);
        } else {
            *o4 = make_float4(v[0], v[1], v[2], v[3]);
        }
        return;
    }
#pragma unroll
    for (int j = 0; j < 4; j++) {
        if (j < m) {
            o[j] = epilogue == DG_EPI_GELU ? dg_gelu(v[j]) : epilogue == DG_EPI_ADD ? o[j] + v[j] : v[j];
        }
    }
}

// One k-slice of dg_gemm_tile_portable_8x8 in LDS buffer BUF (a constant, so that every LDS address is an
// immediate offset from a per-lane base: a runtime buffer cost gfx1010 4 VALU per slice to select it and
// 7 to rebase the stores): the next slice's global loads, this slice's 16 k-steps, the next slice's
// stores into the other buffer, the barrier.
template <int BUF, class Load, class Store, class Frag>
__device__ __forceinline__ void dg_p8_slice(float (&acc)[8][8], int s, int slices, const Load& load,
                                            const Store& store, const Frag& frag) {
    const bool more = s + 1 < slices; // uniform per block
    if (more) {
        load((s + 1) * DG_P8_BK); // in flight during this slice's FMAs
    }
    // The fragments of step kk + 1 are read while step kk's 64 FMAs run (16 more registers; not
    // on gfx11: DG_P8_AHEAD); the loop unrolled by 8, not 16: fully unrolled, LLVM hoists all 64
    // LDS reads of the slice and spills (256 VGPRs, 424 bytes of scratch on gfx1010).
    float4 a0, a1, b0, b1;
    if (DG_P8_AHEAD) {
        frag(BUF, 0, a0, a1, b0, b1);
    }
#pragma unroll 8
    for (int kk = 0; kk < DG_P8_BK; kk++) {
        float4 na0, na1, nb0, nb1;
        if (DG_P8_AHEAD) {
            frag(BUF, kk + 1, na0, na1, nb0, nb1);
        } else {
            frag(BUF, kk, a0, a1, b0, b1);
        }
        const float av[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
        const float bv[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
        for (int i = 0; i < 8; i++) {
#pragma unroll
            for (int j = 0; j < 8; j++) {
                acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
            }
        }
        if (DG_P8_AHEAD) {
            a0 = na0;
            a1 = na1;
            b0 = nb0;
            b1 = nb1;
        }
    }
    if (more) {
        store(BUF ^ 1); // its last readers finished before the previous barrier
    }
    __syncthreads();
}

template <class LoadA>
__device__ __forceinline__ void dg_gemm_tile_portable_8x8(const LoadA& loadA, const __half* w, const __half* bias,
                                                          float* out, int rows, int n, int k, int epilogue, int row0,
                                                          int col0) {
    static_assert(DG_P8_TILE * DG_P8_BK == 8 * DG_GEMM_THREADS, "A: two float4s per lane; w: 8 halves per lane");
    // One row more than a slice: step BK - 1 reads "step BK" too (never used), so the loop needs no
    // branch around its reads of the next step.
    __shared__ __align__(16) float As[2][DG_P8_BK + 1][DG_P8_LD];
    __shared__ __align__(16) float Bs[2][DG_P8_BK + 1][DG_P8_LD];
    DG_EMU_POISON_SHARED(As); // nothing on a GPU; the CPU emulation fills both with NaN per block
    DG_EMU_POISON_SHARED(Bs);

    const int tid = threadIdx.x;
    const int tx = tid % 16; // columns 4 tx .. + 3 and 64 + 4 tx .. + 3 of the tile
    const int ty = tid / 16; // rows likewise
    const bool aVec = loadA.vec4();
    const bool wVec = (k % 8) == 0 && (reinterpret_cast<unsigned long long>(w) & 15) == 0;

    // Staging: float4 s of A is row e / 4, k 4 (e % 4) .. + 3 (e = tid + 256 s: 4 lanes read 64
    // contiguous bytes of a row); w's 8 halves are column tid / 2, k 8 (tid % 2) .. + 7.
    // Per-lane addresses computed once: w's row (its 8 halves per slice), and in LDS where this lane
    // stores its staged values and reads its fragments, in buffer 0 (buffer 1: + DG_P8_BUF floats,
    // a uniform offset). Per slice the paths below then cost no address arithmetic but one add per
    // base, and whether a slice is whole (k0 + 16 <= k) is one uniform test.
    const int wc = col0 + tid / 2;
    const __half* wRow = w + (long long) wc * k + 8 * (tid % 2);
    float* const aSt = &As[0][4 * (tid % 4)][tid / 4];
    float* const bSt = &Bs[0][8 * (tid % 2)][tid / 2];
    const float* const aRd = &As[0][0][4 * ty];
    const float* const bRd = &Bs[0][0][4 * tx];
    float4 aReg[2];
    float bReg[8];
    auto load = [&](int k0) {
        const bool whole = k0 + DG_P8_BK <= k; // uniform
#pragma unroll
        for (int s = 0; s < 2; s++) {
            const int e = tid + s * DG_GEMM_THREADS;
            const int r = row0 + e / 4;
            const int gk = k0 + 4 * (e % 4);
            if (aVec && whole && r < rows) {
                aReg[s] = loadA.load4(r, gk);
            } else {
                aReg[s].x = (r < rows && gk < k) ? loadA(r, gk) : 0.0f;
                aReg[s].y = (r < rows && gk + 1 < k) ? loadA(r, gk + 1) : 0.0f;
                aReg[s].z = (r < rows && gk + 2 < k) ? loadA(r, gk + 2) : 0.0f;
                aReg[s].w = (r < rows && gk + 3 < k) ? loadA(r, gk + 3) : 0.0f;
            }
        }
        const int c = wc;
        const int gk = k0 + 8 * (tid % 2);
        if (wVec && whole && c < n) {
            __half h[8];
            *reinterpret_cast<uint4*>(h) = *reinterpret_cast<const uint4*>(wRow + k0);
#pragma unroll
            for (int i = 0; i < 8; i++) {
                bReg[i] = __half2float(h[i]);
            }
        } else {
#pragma unroll
            for (int i = 0; i < 8; i++) {
                bReg[i] = (c < n && gk + i < k) ? __half2float(w[(long long) c * k + gk + i]) : 0.0f;
            }
        }
    };
    // As[buf][4 (e % 4) + j][e / 4] for e = tid + 256 s (row tid / 4 + 64 s), Bs[buf][8 (tid % 2) + i][tid / 2].
    auto store = [&](int buf) {
        float* a = aSt + buf * DG_P8_BUF;
        float* b = bSt + buf * DG_P8_BUF;
#pragma unroll
        for (int s = 0; s < 2; s++) {
            a[64 * s] = aReg[s].x;
            a[DG_P8_LD + 64 * s] = aReg[s].y;
            a[2 * DG_P8_LD + 64 * s] = aReg[s].z;
            a[3 * DG_P8_LD + 64 * s] = aReg[s].w;
        }
#pragma unroll
        for (int i = 0; i < 8; i++) {
            b[i * DG_P8_LD] = bReg[i];
        }
    };

    // Step kk of buffer buf: the lane's 8 rows of A and 8 columns of w (four 16-byte LDS reads).
    auto frag = [&](int buf, int kk, float4& a0, float4& a1, float4& b0, float4& b1) {
        const float* a = aRd + buf * DG_P8_BUF + kk * DG_P8_LD;
        const float* b = bRd + buf * DG_P8_BUF + kk * DG_P8_LD;
        a0 = *reinterpret_cast<const float4*>(a);
        a1 = *reinterpret_cast<const float4*>(a + 64);
        b0 = *reinterpret_cast<const float4*>(b);
        b1 = *reinterpret_cast<const float4*>(b + 64);
    };

    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; i++) {
#pragma unroll
        for (int j = 0; j < 8; j++) {
            acc[i][j] = 0.0f;
        }
    }

    const int slices = (k + DG_P8_BK - 1) / DG_P8_BK;
    load(0);
    store(0);
    __syncthreads();
    for (int s = 0; s < slices; s += 2) {
        dg_p8_slice<0>(acc, s, slices, load, store, frag);
        if (s + 1 < slices) {
            dg_p8_slice<1>(acc, s + 1, slices, load, store, frag);
        }
    }

    const bool vecOut = (n % 4) == 0 && (reinterpret_cast<unsigned long long>(out) & 15) == 0;
#pragma unroll
    for (int i = 0; i < 8; i++) {
        const int r = row0 + (i < 4 ? 4 * ty + i : 64 + 4 * ty + i - 4);
        if (r >= rows) {
            continue;
        }
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int c = col0 + 64 * h + 4 * tx;
            if (c < n) {
                dg_p8_store4(out, n, r, c, acc[i][4 * h], acc[i][4 * h + 1], acc[i][4 * h + 2], acc[i][4 * h + 3],
                             bias, epilogue, vecOut);
            }
        }
    }
}

// The tile of gemm_f16 and conv1d_gelu_f16: this body's 128 on AMD (and in gemm_portable), else
// gemm_tile.cuh's 64 x 64 NVIDIA bodies.
#if defined(__HIP__) || defined(DG_GEMM_PORTABLE)
#define DG_GEMM_F16_TILE DG_P8_TILE
#else
#define DG_GEMM_F16_TILE 64
#endif

// The entries' body at (blockIdx.y, blockIdx.x) * DG_GEMM_F16_TILE.
template <class LoadA>
__device__ __forceinline__ void dg_gemm_f16_tile(const LoadA& loadA, const __half* w, const __half* bias, float* out,
                                                 int rows, int n, int k, int epilogue) {
#if defined(__HIP__) || defined(DG_GEMM_PORTABLE)
    dg_gemm_tile_portable_8x8(loadA, w, bias, out, rows, n, k, epilogue, blockIdx.y * DG_P8_TILE,
                              blockIdx.x * DG_P8_TILE);
#else
    dg_gemm_tile<64>(loadA, w, bias, out, rows, n, k, epilogue);
#endif
}
