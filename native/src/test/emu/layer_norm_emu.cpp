// layer_norm.cu on the CPU (cuda_emu.h) against float64: the one-read 16-byte path (rows that fit the
// block's registers, aligned) and the element path (unaligned x, odd widths, rows too wide for the
// block), at block sizes 32 to 1024. Built and run by LayerNormEmulatorTest:
//   g++ -std=c++20 -O2 -I<cuda>/include -I<this dir> -I<src/kernels> layer_norm_emu.cpp
// Exit status 0 and "0 failed" when every row is within 1e-6 (normwise) and nothing stays NaN.
#include <cuda_fp16.h>
#include <vector_functions.h>
#include <vector_types.h>
#include "cuda_emu.h"
#include "layer_norm.cu"
#include <cstdio>
#include <random>
#include <tuple>

int main() {
    int bad = 0;
    // rows, cols, block, offset of x and out in floats (1: not 16-byte aligned)
    const std::tuple<int, int, int, int> cases[] = {{5, 1280, 256, 0}, {3, 768, 1024, 0}, {3, 384, 96, 0},
                                                    {3, 1280, 32, 0},  {2, 1280, 256, 1}, {4, 33, 64, 0},
                                                    {3, 4097, 32, 0},  {2, 8, 32, 0}};
    for (auto [rows, cols, block, off] : cases) {
        std::mt19937 rng(cols * 7 + block);
        std::uniform_real_distribution<float> u(-1, 1);
        std::vector<float> xs((size_t) rows * cols + 4), outs(xs.size(), NAN);
        std::vector<__half> g(cols), b(cols);
        for (auto& v : xs) v = u(rng) * 3 + 5; // a mean far from 0: the two-pass variance matters
        for (auto& v : g) v = __float2half(1 + u(rng) * 0.2f);
        for (auto& v : b) v = __float2half(u(rng) * 0.1f);
        const float* x = xs.data() + off;
        float* o = outs.data() + off;
        emu_launch({(unsigned) rows, 1, 1}, block, false, [&] { layer_norm_f32(x, g.data(), b.data(), o, rows, cols); });
        double num = 0, den = 0;
        for (int r = 0; r < rows; r++) {
            double m = 0, v = 0;
            for (int c = 0; c < cols; c++) m += x[(size_t) r * cols + c];
            m /= cols;
            for (int c = 0; c < cols; c++) v += (x[(size_t) r * cols + c] - m) * (x[(size_t) r * cols + c] - m);
            const double inv = 1 / std::sqrt(v / cols + 1e-5);
            for (int c = 0; c < cols; c++) {
                const double w = (x[(size_t) r * cols + c] - m) * inv * __half2float(g[c]) + __half2float(b[c]);
                const double d = o[(size_t) r * cols + c] - w;
                num += d * d;
                den += w * w;
            }
        }
        const double e = std::sqrt(num / den);
        const bool ok = e <= 1e-6; // false for NaN
        bad += !ok;
        printf("rows %d cols %4d block %4d offset %d: rel err %.2e %s\n", rows, cols, block, off, e, ok ? "ok" : "FAIL");
    }
    printf("%d failed\n", bad);
    return bad != 0;
}
