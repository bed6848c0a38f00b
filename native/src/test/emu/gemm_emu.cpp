// gemm_hilo_pipe.cuh's sm_80 body on the CPU (cuda_emu.h threads, mma_emu.h's mma/ldmatrix/cp.async)
// against float64, at the product's tile (gemm_f16_hilo_pipe: 128 x 128, 4 stages of two 32-wide slices)
// and the bench's others (128 x 64, 64 x 64; one or two slices per stage): partial tiles in rows and columns, k not a multiple of 32, more slices than
// stages (the stage rotation), one slice; all three epilogues. Built and run by
// TensorCoreGemmEmulatorTest:
//   g++ -std=c++20 -O2 -DDG_EMU_MMA -I<cuda>/include -I<this dir> -I<src/kernels> gemm_emu.cpp
// Exit status 0 and "0 failed" when every output is within 1e-5 (normwise) and none stays NaN.
#include <cuda_fp16.h>
#include <vector_functions.h>
#include <vector_types.h>
#include "cuda_emu.h"
#include "mma_emu.h"
#define __CUDA_ARCH__ 800 // after CUDA's headers, whose host code must not see it
#include "gemm_hilo_pipe.cuh"
#include <cstdio>
#include <random>

alignas(128) __half dg_smem[4 * (2 * 128 + 128) * 64]; // the dynamic shared memory of one block

template <int BM, int BN, int WM, int WN, int S, int KS = 1>
static bool check(int rows, int n, int k, int epi) {
    std::mt19937 rng(rows * 31 + n * 7 + k + epi);
    std::uniform_real_distribution<float> u(-1, 1);
    std::vector<float> x((size_t) rows * k), out((size_t) rows * n, NAN), init((size_t) rows * n);
    std::vector<__half> hi(x.size()), lo(x.size()), w((size_t) n * k), bias(n);
    for (size_t i = 0; i < x.size(); i++) {
        x[i] = u(rng) * 3;
        dg_split(x[i], hi[i], lo[i]);
    }
    for (auto& v : w) v = __float2half(u(rng) * 0.05f);
    for (auto& v : bias) v = __float2half(u(rng) * 0.1f);
    for (auto& v : init) v = u(rng);
    if (epi == DG_EPI_ADD) out = init;
    emu_launch({(unsigned) ((n + BN - 1) / BN), (unsigned) ((rows + BM - 1) / BM), 1}, 256, false,
               [&] {
                   dg_gemm_hilo_pipe<BM, BN, WM, WN, S, KS>(hi.data(), lo.data(), w.data(), bias.data(), out.data(), rows,
                                                        n, k, epi, dg_smem);
               },
               [] { std::memset(dg_smem, 0xff, sizeof dg_smem); }); // NaN wherever nothing was staged
    double num = 0, den = 0;
    size_t nan = 0;
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < n; c++) {
            double v = __half2float(bias[c]);
            for (int i = 0; i < k; i++) v += (double) x[(size_t) r * k + i] * __half2float(w[(size_t) c * k + i]);
            if (epi == DG_EPI_GELU) v = 0.5 * v * std::erfc(-v / std::sqrt(2.0));
            if (epi == DG_EPI_ADD) v += init[(size_t) r * n + c];
            const double g = out[(size_t) r * n + c];
            nan += !std::isfinite(g);
            num += (g - v) * (g - v);
            den += v * v;
        }
    }
    const double err = std::sqrt(num / den);
    const bool ok = nan == 0 && err <= 1e-5;
    printf("tile %3d x %3d warps %d x %d stages %d x %d slices: %4d x %4d x %4d epi %d: rel err %.2e%s %s\n", BM,
           BN, WM, WN, S, KS, rows, n, k, epi, err, nan ? " NON-FINITE" : "", ok ? "ok" : "FAIL");
    return ok;
}

int main() {
    int bad = 0;
    // rows, n, k: partial tiles both ways, k % 32 != 0 with 9 slices (> 4 stages), one slice of 8
    const int shapes[][3] = {{200, 136, 264}, {129, 65, 8}, {64, 64, 32}, {130, 200, 104}};
    for (auto& s : shapes) {
        for (int epi = 0; epi < 3; epi++) {
            bad += !check<128, 128, 2, 4, 4, 2>(s[0], s[1], s[2], epi); // gemm_f16_hilo_pipe
            bad += !check<128, 64, 4, 2, 3>(s[0], s[1], s[2], epi);
        }
        bad += !check<128, 128, 2, 4, 3, 2>(s[0], s[1], s[2], 1);
        bad += !check<128, 64, 4, 2, 2, 2>(s[0], s[1], s[2], 0);
        bad += !check<64, 64, 2, 4, 4, 2>(s[0], s[1], s[2], 2);
    }
    printf("%d failed\n", bad);
    return bad != 0;
}
