// gemm_f16_hilo's sm_80+ body: out = epilogue((hi + lo) · wᵀ + bias) for one 128 x 128 tile, where
// hi and lo are x's f16 halves made once per GEMM by split_f32_hilo (gemm.cu).
//
// Why a split pass: the loader-based body (gemm_tile.cuh) splits each f32 element of x into hi/lo
// inside the k loop, once per block column that reads it (40 times for a 5120-wide output), and
// must bring x through registers for that; here every operand is f16 in global memory, so each
// k-slice of hi, lo and w goes global -> shared by cp.async while the tensor cores work on the
// previous one, and the loop holds nothing but fragment loads and mmas.
//
// 8 warps of 2 x 4, each a 64 x 32 piece (4 x 4 blocks of m16n8k16). Per 32-wide k-slice, hi, lo
// and w are staged as [128][32] halves each, two slices in flight (2 x 3 x 8 KiB = the 48 KiB of
// static shared memory). Rows are 64 bytes, unpadded; the 16-byte chunk c of row r is stored at
// chunk c ^ ((r / 2) % 4), so the 8 rows one ldmatrix reads (and the cp.async stores) fall on 8
// different 16-byte bank groups.
#pragma once
#include "gemm_tile.cuh"

#if !defined(__HIP__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define DG_HILO_TILE 128
#define DG_HILO_BK 32

// Halves offset of chunk c (8 halves) of row r in a swizzled [rows][32] stage.
__device__ __forceinline__ int dg_hilo_swz(int r, int c) {
    return (c ^ ((r >> 1) & 3)) * 8;
}

// LO = false: x taken as hi alone (f16 activations; kernel_bench's probe of what they would give).
template <bool LO>
__device__ __forceinline__ void dg_gemm_hilo_sm80(const __half* xhi, const __half* xlo, const __half* w,
                                                  const __half* bias, float* out, int rows, int n, int k,
                                                  int epilogue, int row0, int col0) {
    constexpr int BK = DG_HILO_BK;
    constexpr int MI = 4; // m16 blocks per warp (64 rows)
    constexpr int NJ = 4; // n8 blocks per warp (32 columns)
    __shared__ __align__(128) __half sm[2][3][DG_HILO_TILE][BK]; // [stage][hi, lo, w][row][k]

    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int lr = lane & 7;
    const int lm = lane >> 3;
    const int wm = (warp >> 2) * 64;
    const int wn = (warp & 3) * 32;
    const bool pairs = (n % 2) == 0 && (reinterpret_cast<unsigned long long>(out) & 7) == 0;

    // Slice k0 into stage st: 128 rows x 4 chunks of each operand, two chunks per thread. Rows or k
    // outside the matrices read as zeros (cp.async with 0 source bytes). k % 8 == 0 (the backend's
    // precondition), so a chunk is never partly inside.
    auto load = [&](int k0, int st) {
#pragma unroll
        for (int s = 0; s < 2; s++) {
            const int e = tid + s * DG_GEMM_THREADS;
            const int r = e >> 2;
            const int c = e & 3;
            const int gk = k0 + 8 * c;
            const int o = r * BK + dg_hilo_swz(r, c);
            const bool inA = row0 + r < rows && gk < k;
            const long long ao = (long long) (row0 + r) * k + gk;
            dg_cp_async16_at(&sm[st][0][0][0] + o, xhi, ao, inA);
            if (LO) {
                dg_cp_async16_at(&sm[st][1][0][0] + o, xlo, ao, inA);
            }
            const bool inB = col0 + r < n && gk < k;
            dg_cp_async16_tile(&sm[st][2][0][0] + o, w, col0 + r, k, gk, inB);
        }
        dg_cp_async_commit();
    };

    float acc[MI][NJ][4];
    dg_acc_zero<MI * NJ * 4>(&acc[0][0][0]);

    const int slices = (k + BK - 1) / BK;
    load(0, 0);
    for (int s = 0; s < slices; s++) {
        if (s + 1 < slices) {
            load((s + 1) * BK, (s + 1) & 1); // the stage the previous slice's mmas are done with
            dg_cp_async_wait<1>();          // this slice has landed (for this thread's copies)
        } else {
            dg_cp_async_wait<0>();
        }
        __syncthreads(); // ... and for every thread's
        const int st = s & 1;
        // w fragments for the whole slice: per n8 block, ldmatrix.x4 of (n +0..7, k chunks 0..3):
        // registers 0, 1 are the b0, b1 of the first k16 step, 2, 3 of the second.
        unsigned b[NJ][4];
#pragma unroll
        for (int j = 0; j < NJ; j++) {
            const int r = wn + 8 * j + lr;
            dg_ldmatrix_x4(b[j], &sm[st][2][r][dg_hilo_swz(r, lm)]);
        }
        // Each (m16, n8) block's slice is summed apart, then added to acc in f32 (the tensor cores'
        // accumulation truncates; see gemm_tile.cuh); the first mma starts from zero. k16 steps
        // outermost: 16 independent chains of 4 (LO) mmas, so the mma latency is hidden within a
        // warp (8 warps per SM leave little to hide it across warps).
        float part[MI][NJ][4];
#pragma unroll
        for (int kk = 0; kk < 2; kk++) {
            // A fragments: matrices (rows +0, chunk 2 kk), (rows +8, 2 kk), (rows +0, 2 kk + 1),
            // (rows +8, 2 kk + 1) are a0..a3.
            unsigned ah[MI][4], al[MI][4];
#pragma unroll
            for (int i = 0; i < MI; i++) {
                const int r = wm + 16 * i + lr + 8 * (lm & 1);
                const int c = 2 * kk + (lm >> 1);
                dg_ldmatrix_x4(ah[i], &sm[st][0][r][dg_hilo_swz(r, c)]);
                if (LO) {
                    dg_ldmatrix_x4(al[i], &sm[st][1][r][dg_hilo_swz(r, c)]);
                }
            }
#pragma unroll
            for (int i = 0; i < MI; i++) {
#pragma unroll
                for (int j = 0; j < NJ; j++) {
                    dg_mma_hilo_k16<LO>(part[i][j], ah[i], al[i], b[j][2 * kk], b[j][2 * kk + 1], kk == 0);
                }
            }
        }
        dg_acc_add<MI * NJ * 4>(&acc[0][0][0], &part[0][0][0]);
        __syncthreads(); // the next iteration's copies overwrite this stage
    }

    dg_gemm_store_warp<MI, NJ>(acc, out, rows, n, row0 + wm, col0 + wn, bias, epilogue, pairs);
}
#endif
