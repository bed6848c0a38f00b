// gemm_f16_hilo's deep-pipeline bodies (sm_80+): the same product as gemm_hilo.cuh (x = hi + lo, two
// mmas per product, each 32-wide k-slice summed apart in f32 and then added to the accumulator), with
// STAGES k-slices in DYNAMIC shared memory (the launch opts in above 48 KiB: cuFuncSetAttribute
// MAX_DYNAMIC_SHARED_SIZE_BYTES) and a BM x BN tile of WARPS_M x WARPS_N warps.
//
// Why: the 2-stage body (48 KiB of static shared memory) keeps one slice in flight while the tensor
// cores work on another; at 8 warps per SM that leaves 0.35 eligible warps per scheduler and the
// loop waits on global memory every slice (ncu: tensor pipe 37 % active). With STAGES - 1 slices in
// flight the copies have STAGES - 1 slices' worth of mmas to land in, and one barrier per slice
// instead of two (the stage refilled at slice s is the one every thread finished at slice s - 1).
//
// Shared layout per stage: hi [BM][32 KS], lo [BM][32 KS], w [BN][32 KS] halves; KS = 1: rows of 64 bytes
// with gemm_hilo.cuh's XOR swizzle (dg_hilo_swz); KS = 2: rows of 128 bytes, chunk c at c ^ (r % 8).
// Stage bytes = (2 BM + BN) · 64 · KS. The product's entry (gemm.cu, gemm_f16_hilo_pipe): 128 x 128,
// KS = 2, 4 stages = 192 KiB, one block per SM (sm_90's opt-in); kernel_bench instantiates others.
// Preconditions as gemm_f16_hilo: k % 8 == 0; hi, lo, w 16-byte aligned; blockDim = WARPS_M·WARPS_N·32;
// grid (ceil(n / BN), ceil(rows / BM)); dynamic shared bytes = dg_hilo_pipe_shared_ks(BM, BN, STAGES, KS).
#pragma once
#include "gemm_hilo.cuh"

// KS: 32-wide k-slices per stage (1, or 2: half the barriers and waits per k, each 32-wide slice
// still summed apart; rows of 128 bytes swizzled by chunk c ^ (r % 8)).
#define dg_hilo_pipe_shared(BM, BN, STAGES) ((STAGES) * (2 * (BM) + (BN)) * 32 * 2)
#define dg_hilo_pipe_shared_ks(BM, BN, STAGES, KS) (dg_hilo_pipe_shared(BM, BN, STAGES) * (KS))

#if !defined(__HIP__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
// Halves offset of chunk c (8 halves) of row r in a stage of KS 32-wide slices.
template <int KS>
__device__ __forceinline__ int dg_hilo_pipe_swz(int r, int c) {
    return KS == 1 ? dg_hilo_swz(r, c) : (c ^ (r & 7)) * 8;
}

template <int BM, int BN, int WARPS_M, int WARPS_N, int STAGES, int KS = 1>
__device__ __forceinline__ void dg_gemm_hilo_pipe(const __half* xhi, const __half* xlo, const __half* w,
                                                  const __half* bias, float* out, int rows, int n, int k,
                                                  int epilogue, __half* sm) {
    constexpr int BK = DG_HILO_BK;            // the slice summed apart
    constexpr int RB = BK * KS;               // halves per staged row
    constexpr int CH = RB / 8;                // 16-byte chunks per staged row
    constexpr int T = WARPS_M * WARPS_N * 32;
    constexpr int MI = BM / WARPS_M / 16; // m16 blocks per warp
    constexpr int NJ = BN / WARPS_N / 8;  // n8 blocks per warp
    constexpr int SA = BM * RB;           // halves of one A plane per stage
    constexpr int ST = 2 * SA + BN * RB;  // halves per stage
    constexpr int AL = BM * CH / T;       // 16-byte chunks of each A plane per thread per stage
    constexpr int BL = BN * CH / T;       // and of w
    static_assert(STAGES >= 2 && MI >= 1 && NJ >= 1 && (KS == 1 || KS == 2), "tile");
    static_assert(AL * T == BM * CH && BL * T == BN * CH && BL >= 1, "threads must divide the stage's chunks");

    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int lr = lane & 7;
    const int lm = lane >> 3;
    const int wm = (warp / WARPS_N) * (MI * 16);
    const int wn = (warp % WARPS_N) * (NJ * 8);
    const int row0 = blockIdx.y * BM;
    const int col0 = blockIdx.x * BN;
    const bool pairs = (n % 2) == 0 && (reinterpret_cast<unsigned long long>(out) & 7) == 0;
    const int slices = (k + RB - 1) / RB; // stages' worth of k

    // Slice `slice` into its stage, then commit a group (an empty one past the last slice, so that
    // every iteration's wait counts the same number of groups). Rows or k outside read as zeros.
    auto load = [&](int slice) {
        if (slice < slices) {
            __half* s = sm + (slice % STAGES) * ST;
            const int k0 = slice * RB;
#pragma unroll
            for (int q = 0; q < AL; q++) {
                const int e = tid + q * T;
                const int r = e / CH;
                const int c = e % CH;
                const int gk = k0 + 8 * c;
                const int o = r * RB + dg_hilo_pipe_swz<KS>(r, c);
                const bool in = row0 + r < rows && gk < k;
                const long long g = (long long) (row0 + r) * k + gk;
                dg_cp_async16_at(s + o, xhi, g, in);
                dg_cp_async16_at(s + SA + o, xlo, g, in);
            }
#pragma unroll
            for (int q = 0; q < BL; q++) {
                const int e = tid + q * T;
                const int r = e / CH;
                const int c = e % CH;
                const int gk = k0 + 8 * c;
                const bool in = col0 + r < n && gk < k;
                dg_cp_async16_tile(s + 2 * SA + r * RB + dg_hilo_pipe_swz<KS>(r, c), w, col0 + r, k, gk, in);
            }
        }
        dg_cp_async_commit();
    };

    float acc[MI][NJ][4];
    dg_acc_zero<MI * NJ * 4>(&acc[0][0][0]);

#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        load(s);
    }
    for (int s = 0; s < slices; s++) {
        dg_cp_async_wait<STAGES - 2>(); // slice s has landed (this thread's copies) ...
        __syncthreads();                // ... every thread's, and every thread is done with slice s - 1
        load(s + STAGES - 1);           // into slice s - 1's stage
        const __half* hi = sm + (s % STAGES) * ST;
        const __half* lo = hi + SA;
        const __half* ws = hi + 2 * SA;
        // As gemm_hilo.cuh, per 32-wide slice ks of the stage: w fragments for the whole slice
        // (ldmatrix.x4 of 8 columns x 4 k chunks), then per k16 step the A fragments of hi and lo;
        // per (m16, n8) block one chain of 4 mmas (lo, hi of k16 step 0, lo, hi of step 1) from zero,
        // added to acc in f32.
#pragma unroll
        for (int ks = 0; ks < KS; ks++) {
            unsigned b[NJ][4];
#pragma unroll
            for (int j = 0; j < NJ; j++) {
                const int r = wn + 8 * j + lr;
                dg_ldmatrix_x4(b[j], ws + r * RB + dg_hilo_pipe_swz<KS>(r, 4 * ks + lm));
            }
            float part[MI][NJ][4];
#pragma unroll
            for (int kk = 0; kk < 2; kk++) {
                unsigned ah[MI][4], al[MI][4];
#pragma unroll
                for (int i = 0; i < MI; i++) {
                    const int r = wm + 16 * i + lr + 8 * (lm & 1);
                    const int c = 4 * ks + 2 * kk + (lm >> 1);
                    dg_ldmatrix_x4(ah[i], hi + r * RB + dg_hilo_pipe_swz<KS>(r, c));
                    dg_ldmatrix_x4(al[i], lo + r * RB + dg_hilo_pipe_swz<KS>(r, c));
                }
#pragma unroll
                for (int i = 0; i < MI; i++) {
#pragma unroll
                    for (int j = 0; j < NJ; j++) {
                        dg_mma_hilo_k16<true>(part[i][j], ah[i], al[i], b[j][2 * kk], b[j][2 * kk + 1], kk == 0);
                    }
                }
            }
            dg_acc_add<MI * NJ * 4>(&acc[0][0][0], &part[0][0][0]);
        }
    }
    dg_cp_async_wait<0>(); // no copy may still target shared memory when the block exits

    dg_gemm_store_warp<MI, NJ>(acc, out, rows, n, row0 + wm, col0 + wn, bias, epilogue, pairs);
}
#endif
