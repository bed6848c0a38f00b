// Runs the decoder's GEMV kernels (gemv_f16, gemv1_f16, gemv1_ln_f16, gemv3_1_f16, gemv1_pipe_f16) and layer_norm_f32 on the CPU, one std::thread per GPU
// thread, block after block, against a float64 reference; a check of their indexing, splits,
// predicates and reductions where no GPU is at hand (it says nothing about speed).
//   native/bench/kernel_emu.sh        (g++ -std=c++20 with the CUDA headers; no GPU needed)
// Emulated (native/src/test/emu/cuda_emu.h): __syncthreads (a barrier of the block), warp shuffles (a barrier of the warp: a lane
// that skips a shuffle its warp takes hangs the run, as it would be undefined on a GPU), shared
// memory (one copy per block: blocks run one at a time, in a given order — forward, or reversed to
// show that the block order does not change the bits), atomics, fences. warpSize 32 or 64.
// cross_attention.cu's entries have their own emulation, run as a test: src/test/emu/cross_attention_emu.cpp
// (CrossAttentionEmulatorTest).
#include <cstdio>
#include <cstdlib>

#include <cuda_fp16.h>
#include <vector_functions.h>
#include <vector_types.h>

#include "cuda_emu.h" // native/src/test/emu: the one CPU emulation of CUDA

alignas(16) static float dynamicShared[1 << 16]; // `extern __shared__ float sm[]`, rewritten by kernel_emu.sh

#include "emu_kernels.inc" // gemv.cu and layer_norm.cu, `extern __shared__` rewritten by kernel_emu.sh

#include "emu_check.h" // frand, check, failures

// LaunchGeometry.gemvGrid, as the host launches it.
static int gemvGrid(int n, int k, int block) {
    int warps = block / warpSize, s = 1;
    while (s * 2 <= warps && (k / 8) / (s * 2) >= 4 * warpSize) s *= 2;
    return std::min((n + warps / s - 1) / (warps / s), 65535);
}

// pipe: gemv1_pipe_f16 (rows must be 1; the grid as given: the backend's is a few blocks per SM).
static void gemvCase(int rows, int n, int k, int xOffset, int block, int grid, bool pipe = false) {
    std::vector<float> xs((size_t) rows * k + 8), out((size_t) rows * n + 64), init((size_t) rows * n);
    std::vector<__half> w((size_t) n * k + 8), bias(n);
    for (auto& v : xs) v = frand();
    for (auto& v : w) v = __float2half(frand() * 0.05f);
    for (auto& v : bias) v = __float2half(frand() * 0.1f);
    for (auto& v : init) v = frand();
    const float* x = xs.data() + xOffset;
    if (grid == 0) grid = gemvGrid(n, k, block);
    for (int epi = 0; epi < 3; epi++) {
        std::vector<float> first;
        for (int run = 0; run < 2; run++) {
            std::fill(out.begin(), out.end(), NAN);
            if (epi == 2) std::copy(init.begin(), init.end(), out.begin());
            for (int g = 0; g < 64; g++) out[(size_t) rows * n + g] = 1234.5f;
            emu_launch({(unsigned) grid, 1, 1}, block, run == 1, [&] {
                if (pipe) {
                    gemv1_pipe_f16(x, w.data(), bias.data(), out.data(), n, k, epi);
                } else {
                    gemv_f16(x, w.data(), bias.data(), out.data(), rows, n, k, epi);
                }
            });
            double num = 0, den = 0;
            for (int r = 0; r < rows; r++) {
                for (int j = 0; j < n; j++) {
                    double v = __half2float(bias[j]);
                    for (int i = 0; i < k; i++) v += (double) x[(size_t) r * k + i] * __half2float(w[(size_t) j * k + i]);
                    if (epi == 1) v = 0.5 * v * std::erfc(-v / std::sqrt(2.0));
                    if (epi == 2) v += init[(size_t) r * n + j];
                    const double d = out[(size_t) r * n + j] - v;
                    num += std::isnan(d) ? INFINITY : d * d;
                    den += v * v;
                }
            }
            bool guard = true;
            for (int g = 0; g < 64; g++) guard &= out[(size_t) rows * n + g] == 1234.5f;
            char what[160];
            snprintf(what, sizeof what, "%s rows %d n %d k %d x+%d block %d grid %d epi %d run %d: rel err %.2e",
                     pipe ? "gemv1_pipe" : "gemv", rows, n, k, xOffset, block, grid, epi, run, std::sqrt(num / den));
            check(std::sqrt(num / den) <= 1e-5, what);
            check(guard, "gemv wrote past its output");
            if (run == 0) {
                first.assign(out.begin(), out.begin() + (size_t) rows * n);
                if (epi == 0) printf("%s\n", what);
            } else {
                check(std::memcmp(first.data(), out.data(), first.size() * 4) == 0, "gemv: second run differs");
            }
        }
    }
}

// The one-row kernels: gemv1_f16, gemv1_ln_f16 (the LayerNorm prologue) (every block normalises
// x itself: the blocks must agree, which a wrong reduction would break) and gemv3_1_f16 with the
// K/V rows written to row step[1] of the caches; against float64 (the LN too), outputs poisoned,
// guards past every output and around the cache row, a second run in reversed block order bit for bit.
static void gemv1Case(int n, int k, bool ln, int block, int grid, bool three) {
    const int ctx = 5, pos = 3;
    std::vector<float> x(k);
    for (auto& v : x) v = frand() * 3 + 0.7f; // a mean far from 0, as the residual stream
    std::vector<__half> g(k), lb(k), w((size_t) 3 * n * k + 8), bias(3 * n);
    for (auto& v : g) v = __float2half(frand());
    for (auto& v : lb) v = __float2half(frand() * 0.2f);
    for (auto& v : w) v = __float2half(frand() * 0.05f);
    for (auto& v : bias) v = __float2half(frand() * 0.1f);
    std::vector<double> y(k);
    {
        double mean = 0, var = 0;
        for (float v : x) mean += v;
        mean /= k;
        for (float v : x) var += (v - mean) * (v - mean);
        const double inv = 1 / std::sqrt(var / k + 1e-5);
        for (int c = 0; c < k; c++) y[c] = ln ? (x[c] - mean) * inv * __half2float(g[c]) + __half2float(lb[c]) : x[c];
    }
    if (grid == 0) grid = gemvGrid(three ? n : n, k, block);
    int step[3] = {0, pos, pos + 1};
    const int epis = three ? 1 : 3;
    for (int epi = 0; epi < epis; epi++) {
        std::vector<float> first, init(n);
        for (auto& v : init) v = frand();
        for (int run = 0; run < 2; run++) {
            // out: projection 0 (n), then two caches of ctx rows each (three), + 64 guards
            std::vector<float> out((size_t) n + 2 * (size_t) ctx * n + 64, NAN);
            if (epi == 2) std::copy(init.begin(), init.end(), out.begin());
            float* o0 = out.data();
            float* kc = out.data() + n;
            float* vc = kc + (size_t) ctx * n;
            for (int gi = 0; gi < 64; gi++) out[(size_t) n + 2 * ctx * n + gi] = 1234.5f;
            for (size_t i = n; i < (size_t) n + 2 * ctx * n; i++) out[i] = 1234.5f; // cache rows other than pos stay
            for (int c = 0; c < n; c++) kc[(size_t) pos * n + c] = vc[(size_t) pos * n + c] = NAN;
            std::fill(dynamicShared, dynamicShared + (1 << 16), NAN);
            emu_launch({(unsigned) grid, three ? 3u : 1u, 1}, block, run == 1, [&] {
                if (three) {
                    gemv3_1_f16(x.data(), g.data(), lb.data(), w.data(), bias.data(), o0,
                                w.data() + (size_t) n * k, nullptr, kc, w.data() + (size_t) 2 * n * k, bias.data() + 2 * n,
                                vc, n, k, step, (long long) n);
                } else if (ln) {
                    gemv1_ln_f16(x.data(), g.data(), lb.data(), w.data(), bias.data(), o0, n, k, epi);
                } else {
                    gemv1_f16(x.data(), w.data(), bias.data(), o0, n, k, epi);
                }
            });
            double num = 0, den = 0;
            for (int p = 0; p < (three ? 3 : 1); p++) {
                const float* o = p == 0 ? o0 : (p == 1 ? kc : vc) + (size_t) pos * n;
                for (int j = 0; j < n; j++) {
                    double v = p == 1 ? 0.0 : __half2float(bias[p * n + j]);
                    for (int c = 0; c < k; c++) v += y[c] * __half2float(w[((size_t) p * n + j) * k + c]);
                    if (epi == 1) v = 0.5 * v * std::erfc(-v / std::sqrt(2.0));
                    if (epi == 2) v += init[j];
                    const double d = o[j] - v;
                    num += std::isnan(d) ? INFINITY : d * d;
                    den += v * v;
                }
            }
            bool guard = true;
            for (int gi = 0; gi < 64; gi++) guard &= out[(size_t) n + 2 * ctx * n + gi] == 1234.5f;
            for (int r = 0; r < ctx; r++) {
                for (int c = 0; c < n && r != pos; c++) guard &= kc[(size_t) r * n + c] == 1234.5f && vc[(size_t) r * n + c] == 1234.5f;
            }
            char what[200];
            snprintf(what, sizeof what, "%s n %d k %d ln %d block %d grid %d epi %d run %d: rel err %.2e",
                     three ? "gemv3_1 (K/V at row step[1])" : "gemv1", n, k, ln, block, grid, epi, run, std::sqrt(num / den));
            check(std::sqrt(num / den) <= 1e-5, what);
            check(guard, "gemv1/gemv3_1 wrote outside its outputs");
            std::vector<float> mine(out.begin(), out.end() - 64);
            if (run == 0) {
                first = mine;
                if (epi == 0) printf("%s\n", what);
            } else {
                check(std::memcmp(first.data(), mine.data(), first.size() * 4) == 0, "gemv1: reversed block order differs");
            }
        }
    }
}

// GpuBackend.layerNorm's launch: blocks of LAYER_NORM_BLOCK (128) threads, one row per warp, so
// 128 / warpSize rows a block. xOffset shifts x and out off 16 bytes (the scalar body); a row wider
// than DG_LN_PER_LANE * warpSize takes the block-per-row body. Every output against float64 (mean
// far from 0: the two-pass variance matters), poisoned first, 64 sentinels past the end; in place too.
static void layerNormCase(int rows, int cols, int xOffset, int block = 128, int grid = 0) {
    std::vector<float> xs((size_t) rows * cols + 8), out((size_t) rows * cols + 8 + 64);
    std::vector<__half> g(cols), b(cols);
    for (auto& v : xs) v = frand() * 3 + 5;
    for (auto& v : g) v = __float2half(1 + frand() * 0.5f);
    for (auto& v : b) v = __float2half(frand() * 0.5f);
    const float* x = xs.data() + xOffset;
    const int perBlock = block / warpSize;
    if (grid == 0) grid = std::min((rows + perBlock - 1) / perBlock, 65535);
    std::vector<double> ref((size_t) rows * cols);
    for (int r = 0; r < rows; r++) {
        double mean = 0, var = 0;
        for (int c = 0; c < cols; c++) mean += x[(size_t) r * cols + c];
        mean /= cols;
        for (int c = 0; c < cols; c++) var += (x[(size_t) r * cols + c] - mean) * (x[(size_t) r * cols + c] - mean);
        const double inv = 1 / std::sqrt(var / cols + 1e-5);
        for (int c = 0; c < cols; c++)
            ref[(size_t) r * cols + c] = (x[(size_t) r * cols + c] - mean) * inv * __half2float(g[c]) + __half2float(b[c]);
    }
    std::vector<float> first;
    for (int run = 0; run < 3; run++) { // run 1: blocks in reverse order; run 2: in place (out == x)
        std::vector<float> inPlace((size_t) xOffset + rows * cols + 64);
        std::copy(x, x + (size_t) rows * cols, inPlace.begin() + xOffset);
        float* o = (run == 2 ? inPlace.data() : out.data()) + xOffset;
        if (run != 2) std::fill(out.begin(), out.end(), NAN);
        for (int k = 0; k < 64; k++) o[(size_t) rows * cols + k] = 1234.5f;
        const float* xr = run == 2 ? o : x;
        emu_launch({(unsigned) grid, 1, 1}, block, run == 1, [&] {
            layer_norm_f32(xr, g.data(), b.data(), o, rows, cols);
        });
        double num = 0, den = 0;
        for (size_t i = 0; i < ref.size(); i++) {
            const double d = o[i] - ref[i];
            num += std::isnan(d) ? INFINITY : d * d;
            den += ref[i] * ref[i];
        }
        bool guard = true;
        for (int k = 0; k < 64; k++) guard &= o[(size_t) rows * cols + k] == 1234.5f;
        char what[160];
        snprintf(what, sizeof what, "layer_norm rows %d cols %d x+%d block %d grid %d (%s) run %d: rel err %.2e", rows,
                 cols, xOffset, block, grid, cols > DG_LN_PER_LANE * warpSize ? "block rows"
                 : cols % 4 == 0 && xOffset % 4 == 0 ? "warp rows, float4" : "warp rows, scalar", run,
                 std::sqrt(num / den));
        check(std::sqrt(num / den) <= 1e-6, what);
        check(guard, "layer_norm wrote past its output");
        if (run == 0) {
            printf("%s\n", what);
            first.assign(o, o + (size_t) rows * cols);
        } else {
            check(std::memcmp(first.data(), o, first.size() * 4) == 0, "layer_norm: another block order or in place, other bits");
        }
    }
}

int main() {
    setvbuf(stdout, nullptr, _IOLBF, 0);
    const int b = 128; // LaunchGeometry.GEMV_BLOCK: 4 warps of 32, 2 waves of 64
    for (int ws : {32, 64}) {
        warpSize = ws;
        printf("warpSize %d\n", ws);
        gemvCase(1, 160, 5120, 0, b, 0); // the MLP's k (split in 4 at W 32, 2 at W 64), fewer columns
        gemvCase(3, 77, 4104, 0, b, 0);  // uneven slices
        gemvCase(2, 33, 4098, 2, b, 0);  // half2 loads
        gemvCase(1, 5, 4097, 1, b, 0);   // scalar loads
        gemvCase(1, 1000, 1280, 0, b, 6, true);  // the logits' body: 24 warps walking 1000 columns
        gemvCase(1, 333, 384, 0, b, 5, true);    // tiny's k, a last round with fewer columns than warps
        gemvCase(1, 50, 1288, 0, b, 3, true);    // k % 16 != 0: a lane's last load predicated off
        gemvCase(1, 40, 1000, 2, b, 3, true);    // not 16-byte loads: gemv1_f16's body (fallback)
        gemvCase(1, 40, 4104, 0, b, 3, true);    // longer than one batch per lane: fallback (split)
        gemv1Case(40, 1280, true, b, 0, false);  // large-v3's d, fewer columns (16-byte loads from shared)
        gemv1Case(24, 1288, true, b, 0, true);   // Q/K/V + cache rows, odd d
        gemv1Case(7, 1000, true, b, 0, false);   // half2 path (k % 8 != 0)
        gemv1Case(5, 999, true, b, 0, true);     // scalar path (odd k)
        gemv1Case(9, 5120, true, b, 0, false);   // split rows over warps with the prologue
        // The encoders' rows (large-v3, small, tiny), a decoder step, odd sizes; 4104 is wider than
        // the registers hold (the block body) at both warp sizes, 2000 at 32 only.
        layerNormCase(1500, 1280, 0);
        layerNormCase(1500, 768, 0);
        layerNormCase(1500, 384, 0);
        layerNormCase(1, 1280, 0);
        layerNormCase(7, 1000, 0);
        layerNormCase(3, 999, 0);
        layerNormCase(5, 4104, 0);
        layerNormCase(3, 2000, 0);
        layerNormCase(4, 1280, 1);        // x and out not 16-byte aligned: the scalar body
        layerNormCase(9, 1, 0);
        layerNormCase(11, 1280, 0, 256, 2); // any grid: fewer blocks than rows (grid-stride)
        layerNormCase(3, 4104, 0, 64, 1);
        if (ws == 64) break;
        gemvCase(1, 160, 1280, 0, b, 0);
        gemvCase(5, 128, 5120, 0, b, 0);
        gemvCase(8, 100, 1288, 0, b, 0);
        gemvCase(9, 40, 1288, 0, b, 0); // a second pass over w for the 9th row
        gemvCase(1, 300, 5120, 2, b, 0);
        gemvCase(1, 300, 5120, 1, b, 0);
        gemvCase(1, 160, 5120, 0, 256, 7); // any grid: fewer blocks than columns (grid-stride)
        gemvCase(1, 160, 5120, 0, 64, 0);
        gemvCase(1, 1, 32, 0, b, 0);
        gemv1Case(30, 768, true, b, 0, true);   // small's d
        gemv1Case(30, 384, true, b, 0, false);  // tiny's d
        gemv1Case(33, 1280, false, b, 0, false); // no layer norm: x from global memory
        gemv1Case(20, 384, true, b, 0, true);    // tiny's Q/K/V + cache rows
        gemv1Case(50, 1280, true, b, 3, false);  // a capped grid: several column groups per block
        gemv1Case(50, 1280, true, 256, 2, true);
        gemv1Case(10, 1280, true, 64, 0, false);
        gemv1Case(3, 33, true, b, 0, false);     // k < the block
    }
    printf(failures ? "%d FAILED\n" : "all passed\n", failures);
    return failures ? 1 : 0;
}
