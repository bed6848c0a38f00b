// gemv_q8_0.cu on the CPU (cuda_emu.h) against float64 products of the dequantised weights (issue 22:
// q8_0 weights kept as q8_0 on the device): every entry as GpuBackend launches it — gemv_q8_0 (1..11 rows:
// a token, beams, two passes of rows), gemv3_q8_0 (Q/K/V of the same x), gemv1_ln_q8_0 (the LayerNorm in
// the prologue), gemv3_1_q8_0 and gemv3_1_q8_0kv (K/V into row step[1] of f32 / f16 caches) — at
// Whisper's widths (1280, 5120: the MLP's rows split over warps; 384: tiny) and odd ones (k = 32, 4128:
// uneven slices; x off 16-byte alignment: scalar x loads), every epilogue, warp sizes 32 and 64, blocks
// forward and reversed (bit for bit). Built and run by GemvQ8EmulatorTest:
//   g++ -std=c++20 -O2 -I<cuda>/include -I<this dir> -I<src/kernels> -I<dir of gemv_q8_0_emu.inc>
// where gemv_q8_0_emu.inc is gemv_q8_0.cu with `extern __shared__ float sm[];` made this file's array.
// A weight is d · q as Dequant.java computes it in f32 (exact: an f16 scale times an int8 fits f32's
// mantissa), so the reference is the float64 product of exactly the values the CPU backend uses. Outputs
// are NaN-poisoned and followed by sentinels; cache rows other than step[1] must stay as they were.
// Exit status 0 and "0 failed" when every output is within 1e-5 (normwise) of float64.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cuda_fp16.h>
#include <vector_functions.h>
#include <vector_types.h>

#include "cuda_emu.h"

alignas(16) static float dynamicShared[1 << 16]; // `extern __shared__ float sm[]`, rewritten by the test

#include "gemv_q8_0_emu.inc"

#include "emu_check.h"

#include <vector>

// LaunchGeometry.gemvGrid, as the host launches it.
static int gemvGrid(int n, int k, int block) {
    int warps = block / warpSize, s = 1;
    while (s * 2 <= warps && (k / 8) / (s * 2) >= 4 * warpSize) s *= 2;
    return std::min((n + warps / s - 1) / (warps / s), 65535);
}

// n rows of k values as q8_0 blocks (34 bytes each), random scales of either sign and quants in
// [-127, 127]; the dequantised values (d · q in f32, as Dequant.java) into deq.
static std::vector<unsigned char> q8Matrix(int n, int k, std::vector<double>& deq) {
    const int blocks = n * (k / 32);
    std::vector<unsigned char> m((size_t) blocks * 34 + 64, 0xA5); // + bytes past the end no kernel may need
    deq.assign((size_t) n * k, 0.0);
    for (int b = 0; b < blocks; b++) {
        const float scale = (0.5f + 0.5f * (frand() + 1)) * (frand() < 0 ? -1 : 1) / (127.0f * std::sqrt((float) k));
        const __half h = __float2half_rn(scale);
        unsigned short bits;
        std::memcpy(&bits, &h, 2);
        unsigned char* blk = m.data() + (size_t) b * 34;
        blk[0] = bits & 0xff;
        blk[1] = bits >> 8;
        const float d = __half2float(h);
        for (int j = 0; j < 32; j++) {
            const signed char q = (signed char) (int) std::lround(frand() * 127);
            blk[2 + j] = (unsigned char) q;
            deq[(size_t) b * 32 + j] = (double) (d * (float) q); // Dequant.java: scale * q in f32
        }
    }
    return m;
}

static double gelu(double v) { return 0.5 * v * std::erfc(-v / std::sqrt(2.0)); }

// gemv_q8_0 (count 1) or gemv3_q8_0 (count 3, epilogue 0) over `rows` rows of x at float offset xOff.
static void gemvCase(int rows, int n, int k, int xOff, int count, int block = 128) {
    std::vector<double> deq[3];
    std::vector<unsigned char> w[3];
    std::vector<__half> bias[3];
    for (int p = 0; p < count; p++) {
        w[p] = q8Matrix(n, k, deq[p]);
        bias[p].resize(n);
        for (auto& v : bias[p]) v = __float2half(frand() * 0.1f);
    }
    std::vector<float> xs((size_t) rows * k + xOff);
    for (auto& v : xs) v = frand();
    const float* x = xs.data() + xOff;
    const int grid = gemvGrid(n, k, block);
    const size_t outLen = (size_t) rows * n;
    for (int epi = 0; epi < (count == 1 ? 3 : 1); epi++) {
        std::vector<float> init(outLen);
        for (auto& v : init) v = frand();
        std::vector<float> first;
        for (int run = 0; run < 2; run++) {
            std::vector<float> out[3];
            for (int p = 0; p < count; p++) {
                out[p].assign(outLen + 64, NAN);
                if (epi == 2) std::copy(init.begin(), init.end(), out[p].begin());
                for (int g = 0; g < 64; g++) out[p][outLen + g] = 1234.5f;
            }
            emu_launch({(unsigned) grid, (unsigned) count, 1}, block, run == 1, [&] {
                if (count == 1) {
                    gemv_q8_0(x, w[0].data(), bias[0].data(), out[0].data(), rows, n, k, epi);
                } else {
                    gemv3_q8_0(x, w[0].data(), bias[0].data(), out[0].data(), w[1].data(), nullptr, out[1].data(),
                               w[2].data(), bias[2].data(), out[2].data(), rows, n, k);
                }
            });
            double num = 0, den = 0;
            bool guard = true;
            for (int p = 0; p < count; p++) {
                for (int r = 0; r < rows; r++) {
                    for (int j = 0; j < n; j++) {
                        double v = (count == 3 && p == 1) ? 0.0 : __half2float(bias[p][j]);
                        for (int c = 0; c < k; c++) v += (double) x[(size_t) r * k + c] * deq[p][(size_t) j * k + c];
                        if (epi == 1) v = gelu(v);
                        if (epi == 2) v += init[(size_t) r * n + j];
                        const double d = out[p][(size_t) r * n + j] - v;
                        num += std::isnan(d) ? INFINITY : d * d;
                        den += v * v;
                    }
                }
                for (int g = 0; g < 64; g++) guard &= out[p][outLen + g] == 1234.5f;
            }
            char what[200];
            snprintf(what, sizeof what, "%s rows %d n %d k %d x+%d grid %d epi %d warp %d run %d: rel err %.2e",
                     count == 1 ? "gemv_q8_0" : "gemv3_q8_0", rows, n, k, xOff, grid, epi, warpSize, run,
                     std::sqrt(num / den));
            check(std::sqrt(num / den) <= 1e-5, what);
            check(guard, "gemv_q8_0 wrote past its output");
            std::vector<float> mine;
            for (int p = 0; p < count; p++) mine.insert(mine.end(), out[p].begin(), out[p].end());
            if (run == 0) {
                first = mine;
                printf("%s\n", what);
            } else {
                check(std::memcmp(first.data(), mine.data(), first.size() * 4) == 0,
                      "gemv_q8_0: reversed block order, other bits");
            }
        }
    }
}

// gemv1_ln_q8_0 (three false) or gemv3_1_q8_0 / gemv3_1_q8_0kv (three true; kv: f16 caches): one row,
// LayerNorm(x) · wᵀ + bias, K and V into row `pos` of caches of ctx rows.
static void lnCase(int n, int k, bool three, bool kv, int block = 128) {
    const int ctx = 5, pos = 3;
    std::vector<float> x(k);
    for (auto& v : x) v = frand() * 3 + 0.7f; // a mean far from 0, as the residual stream
    std::vector<__half> g(k), lb(k), bias(3 * n);
    for (auto& v : g) v = __float2half(frand());
    for (auto& v : lb) v = __float2half(frand() * 0.2f);
    for (auto& v : bias) v = __float2half(frand() * 0.1f);
    std::vector<double> deq[3];
    std::vector<unsigned char> w[3];
    for (int p = 0; p < 3; p++) w[p] = q8Matrix(n, k, deq[p]);
    std::vector<double> y(k);
    double mean = 0, var = 0;
    for (float v : x) mean += v;
    mean /= k;
    for (float v : x) var += (v - mean) * (v - mean);
    const double inv = 1 / std::sqrt(var / k + 1e-5);
    for (int c = 0; c < k; c++) y[c] = (x[c] - mean) * inv * __half2float(g[c]) + __half2float(lb[c]);
    const int grid = gemvGrid(n, k, block);
    int step[3] = {0, pos, pos + 1};
    for (int epi = 0; epi < (three ? 1 : 3); epi++) {
        std::vector<float> init(n);
        for (auto& v : init) v = frand();
        std::vector<float> first;
        for (int run = 0; run < 2; run++) {
            std::vector<float> o0((size_t) n + 64, NAN), kc((size_t) ctx * n + 64, 1234.5f), vc = kc;
            std::vector<__half> kh((size_t) ctx * n + 64, __float2half(1234.5f)), vh = kh;
            if (epi == 2) std::copy(init.begin(), init.end(), o0.begin());
            for (int gi = 0; gi < 64; gi++) o0[n + gi] = 1234.5f;
            for (int c = 0; c < n; c++) {
                kc[(size_t) pos * n + c] = vc[(size_t) pos * n + c] = NAN;
                kh[(size_t) pos * n + c] = vh[(size_t) pos * n + c] = __float2half(NAN);
            }
            std::fill(dynamicShared, dynamicShared + (1 << 16), NAN);
            emu_launch({(unsigned) grid, three ? 3u : 1u, 1}, block, run == 1, [&] {
                if (three && kv) {
                    gemv3_1_q8_0kv(x.data(), g.data(), lb.data(), w[0].data(), bias.data(), o0.data(), w[1].data(),
                                   nullptr, kh.data(), w[2].data(), bias.data() + 2 * n, vh.data(), n, k, step,
                                   (long long) n);
                } else if (three) {
                    gemv3_1_q8_0(x.data(), g.data(), lb.data(), w[0].data(), bias.data(), o0.data(), w[1].data(),
                                 nullptr, kc.data(), w[2].data(), bias.data() + 2 * n, vc.data(), n, k, step,
                                 (long long) n);
                } else {
                    gemv1_ln_q8_0(x.data(), g.data(), lb.data(), w[0].data(), bias.data(), o0.data(), n, k, epi);
                }
            });
            // f32 outputs within 1e-5 of float64; f16 cache rows within 1e-3 (the storage's rounding, half an
            // f16 ulp: 2^-11 relative at most, as the f16 self K/V tests allow)
            double num = 0, den = 0, numHalf = 0, denHalf = 0;
            for (int p = 0; p < (three ? 3 : 1); p++) {
                const bool half = kv && p > 0;
                for (int j = 0; j < n; j++) {
                    double v = p == 1 ? 0.0 : __half2float(bias[p * n + j]);
                    for (int c = 0; c < k; c++) v += y[c] * deq[p][(size_t) j * k + c];
                    if (epi == 1) v = gelu(v);
                    if (epi == 2) v += init[j];
                    const double got = p == 0 ? o0[j]
                            : half ? __half2float((p == 1 ? kh : vh)[(size_t) pos * n + j])
                                   : (p == 1 ? kc : vc)[(size_t) pos * n + j];
                    const double d = std::isnan(got - v) ? INFINITY : (got - v) * (got - v);
                    (half ? numHalf : num) += d;
                    (half ? denHalf : den) += v * v;
                }
            }
            bool guard = true;
            for (int gi = 0; gi < 64; gi++) guard &= o0[n + gi] == 1234.5f;
            for (int r = 0; r < ctx; r++) {
                for (int c = 0; c < n && r != pos; c++) {
                    guard &= kc[(size_t) r * n + c] == 1234.5f && vc[(size_t) r * n + c] == 1234.5f;
                    guard &= __half2float(kh[(size_t) r * n + c]) == __half2float(__float2half(1234.5f));
                    guard &= __half2float(vh[(size_t) r * n + c]) == __half2float(__float2half(1234.5f));
                }
            }
            char what[220];
            const double halfErr = kv ? std::sqrt(numHalf / denHalf) : 0.0;
            char kvNote[48] = "";
            if (kv) snprintf(kvNote, sizeof kvNote, ", f16 K/V rows %.2e", halfErr);
            snprintf(what, sizeof what, "%s n %d k %d grid %d epi %d warp %d run %d: rel err %.2e%s", three
                     ? (kv ? "gemv3_1_q8_0kv" : "gemv3_1_q8_0") : "gemv1_ln_q8_0", n, k, grid, epi, warpSize, run,
                     std::sqrt(num / den), kvNote);
            check(std::sqrt(num / den) <= 1e-5, what);
            check(halfErr <= 1e-3, what);
            check(guard, "gemv1_ln_q8_0 / gemv3_1_q8_0 wrote outside its outputs");
            std::vector<float> mine(o0.begin(), o0.end());
            mine.insert(mine.end(), kc.begin(), kc.end());
            mine.insert(mine.end(), vc.begin(), vc.end());
            for (auto h : kh) mine.push_back(__half2float(h));
            for (auto h : vh) mine.push_back(__half2float(h));
            if (run == 0) {
                first = mine;
                printf("%s\n", what);
            } else {
                check(std::memcmp(first.data(), mine.data(), first.size() * 4) == 0,
                      "gemv1_ln_q8_0 / gemv3_1_q8_0: reversed block order, other bits");
            }
        }
    }
}

int main() {
    setvbuf(stdout, nullptr, _IOLBF, 0);
    for (int ws : {32, 64}) {
        warpSize = ws;
        printf("warpSize %d\n", ws);
        gemvCase(1, 96, 1280, 0, 1);  // a decoded token at large-v3/turbo's d (16-byte x loads)
        gemvCase(1, 40, 5120, 0, 1);  // the MLP's down projection: rows split over 4 warps (2 at W 64)
        gemvCase(5, 24, 5120, 0, 1);  // beam 5 with the split
        gemvCase(11, 19, 384, 0, 1);  // tiny's k, two passes of rows (8 + 3)
        gemvCase(3, 50, 1280, 1, 1);  // x off 16-byte alignment: scalar x loads
        gemvCase(1, 7, 32, 0, 1);     // one block per row
        gemvCase(2, 9, 4128, 2, 1);   // 129 blocks: uneven slices, x 8-byte aligned only
        gemvCase(1, 64, 1280, 0, 3);  // Q/K/V in one launch (the key without a bias)
        gemvCase(5, 16, 1280, 0, 3);  // beam 5's Q/K/V
        lnCase(40, 1280, false, false); // the LayerNorm prologue at large-v3/turbo's d
        lnCase(9, 5120, false, false);  // split rows after the prologue
        lnCase(24, 1280, true, false);  // Q/K/V + f32 cache rows
        lnCase(24, 1280, true, true);   // Q/K/V + f16 cache rows (the GPU's self K/V)
        lnCase(12, 384, true, true);    // tiny's d
    }
    printf("%d failed\n", failures);
    return failures == 0 ? 0 : 1;
}
