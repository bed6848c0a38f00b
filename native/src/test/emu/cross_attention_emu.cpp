// cross_attention.cu on the CPU (cuda_emu.h) against float64, every entry: cross_attention_f32 and
// _hd64 with f32 keys/values, cross_attention_f16kv and _hd64 with f16 ones (issue 22), launched as
// GpuBackend launches them (LaunchGeometry.crossChunks chunks, 128 threads) at warp size 32 and 64,
// blocks in forward and reversed order (the ticket's winner must not change the bits), outputs
// poisoned, 64 sentinels past them, the tickets back at 0 after each launch. Built and run by
// CrossAttentionEmulatorTest:
//   g++ -std=c++20 -O2 -I<cuda>/include -I<this dir> -I<src/kernels> -I<dir of cross_attention_emu.inc>
//       cross_attention_emu.cpp
// where cross_attention_emu.inc is cross_attention.cu with its `extern __shared__ float sm[];` made a
// pointer to this file's array (blocks run one at a time). Two limits: against float64 of the values
// the kernel reads (f16 ones widened) 1e-5, the kernel's own error; for the f16 entries, against
// float64 of the f32 values before rounding 1e-3, the cost of storing them in f16 (printed).
#include <cstdio>
#include <cstdlib>
#include <type_traits>

#include <cuda_fp16.h>
#include <vector_functions.h>
#include <vector_types.h>

#include "cuda_emu.h"

alignas(16) static float dynamicShared[1 << 16]; // `extern __shared__ float sm[]`, rewritten by the test

#include "cross_attention_emu.inc"

#include "emu_check.h" // frand, check, failures

// LaunchGeometry.crossChunks, as the host launches it.
static int crossChunks(int rows, int keys, int heads, int headDim, int sms) {
    long pairs = (long) rows * heads, fill = 2L * sms;
    if (pairs >= fill || headDim + 2 > 258) return 1;
    return (int) std::max(1L, std::min((fill + pairs - 1) / pairs, (long) (keys + 63) / 64));
}

template <typename KV> static KV stored(float x);
template <> float stored<float>(float x) { return x; }
template <> __half stored<__half>(float x) { return __float2half_rn(x); }
static double widened(float x) { return x; }
static double widened(__half x) { return __half2float(x); }

// ‖out − ref‖ / ‖ref‖ of cross-attention in float64 over keysT and values as given (any element type).
template <typename T>
static double relErr(const std::vector<float>& out, const std::vector<float>& q, const std::vector<T>& kt,
                     const std::vector<T>& v, int rows, int keys, int heads, int hd, int stride) {
    const int d = heads * hd;
    double num = 0, den = 0;
    for (int r = 0; r < rows; r++) {
        for (int h = 0; h < heads; h++) {
            std::vector<double> p(keys);
            double mx = -INFINITY, sum = 0;
            for (int j = 0; j < keys; j++) {
                double s = 0;
                for (int c = 0; c < hd; c++) s += (double) q[(size_t) r * d + h * hd + c] * widened(kt[(size_t) (h * hd + c) * stride + j]);
                p[j] = s / std::sqrt((double) hd);
                mx = std::max(mx, p[j]);
            }
            for (int j = 0; j < keys; j++) sum += (p[j] = std::exp(p[j] - mx));
            for (int c = 0; c < hd; c++) {
                double o = 0;
                for (int j = 0; j < keys; j++) o += p[j] * widened(v[(size_t) j * d + h * hd + c]);
                o /= sum;
                const double e = out[(size_t) r * d + h * hd + c] - o;
                num += std::isnan(e) ? INFINITY : e * e;
                den += o * o;
            }
        }
    }
    return std::sqrt(num / den);
}

// KV: how keysT and values are stored (float: the _f32 entries; __half: the _f16kv ones).
template <typename KV>
static void crossCase(int rows, int keys, int heads, int hd, int sms, int block, bool hd64 = false) {
    const bool half = std::is_same_v<KV, __half>;
    const int d = heads * hd, stride = keys + 3; // odd: f16 rows start 2-byte aligned
    std::vector<float> q((size_t) rows * d), kt32((size_t) d * stride), v32((size_t) keys * d), out((size_t) rows * d + 64);
    for (auto& e : q) e = frand() * 2;
    for (auto& e : kt32) e = frand() * 2;
    for (auto& e : v32) e = frand();
    std::vector<KV> kt(kt32.size()), v(v32.size());
    for (size_t i = 0; i < kt.size(); i++) kt[i] = stored<KV>(kt32[i]);
    for (size_t i = 0; i < v.size(); i++) v[i] = stored<KV>(v32[i]);
    const int chunks = crossChunks(rows, keys, heads, hd, sms);
    std::vector<float> partial((size_t) 4 * sms * 258, NAN);
    std::vector<unsigned> tickets((size_t) 4 * sms, 0u);
    std::vector<float> first;
    for (int run = 0; run < 2; run++) {
        std::fill(out.begin(), out.end(), NAN);
        for (int g = 0; g < 64; g++) out[(size_t) rows * d + g] = 1234.5f;
        std::fill(dynamicShared, dynamicShared + (1 << 16), NAN);
        emu_launch({(unsigned) heads, (unsigned) rows, (unsigned) chunks}, block, run == 1, [&] {
            if constexpr (std::is_same_v<KV, __half>) {
                (hd64 ? cross_attention_f16kv_hd64 : cross_attention_f16kv)(q.data(), rows, kt.data(), stride, v.data(),
                    keys, heads, hd, out.data(), partial.data(), tickets.data());
            } else {
                (hd64 ? cross_attention_f32_hd64 : cross_attention_f32)(q.data(), rows, kt.data(), stride, v.data(),
                    keys, heads, hd, out.data(), partial.data(), tickets.data());
            }
        });
        const double err = relErr(out, q, kt, v, rows, keys, heads, hd, stride);
        bool guard = true;
        for (int g = 0; g < 64; g++) guard &= out[(size_t) rows * d + g] == 1234.5f;
        bool reset = std::all_of(tickets.begin(), tickets.end(), [](unsigned t) { return t == 0u; });
        char what[200];
        snprintf(what, sizeof what, "cross_attention_%s%s rows %d keys %d heads %d hd %d (%d SMs: %d chunks) block %d run %d: rel err %.2e",
                 half ? "f16kv" : "f32", hd64 ? "_hd64" : "", rows, keys, heads, hd, sms, chunks, block, run, err);
        check(err <= 1e-5, what);
        check(guard, "cross-attention wrote past its output");
        check(reset, "cross-attention left a ticket non-zero");
        if (run == 0) {
            printf("%s", what);
            if (half) {
                const double storage = relErr(out, q, kt32, v32, rows, keys, heads, hd, stride);
                printf("; against the f32 K/V %.2e", storage);
                check(storage <= 1e-3, "f16 K/V: more than 1e-3 from float64 of the f32 values");
            }
            printf("\n");
            first.assign(out.begin(), out.begin() + (size_t) rows * d);
        } else {
            check(std::memcmp(first.data(), out.data(), first.size() * 4) == 0, "cross: another block order, other bits");
        }
    }
}

int main() {
    setvbuf(stdout, nullptr, _IOLBF, 0);
    const int b = 128; // LaunchGeometry.CROSS_BLOCK: 4 warps of 32, 2 waves of 64
    for (int ws : {32, 64}) {
        warpSize = ws;
        printf("warpSize %d\n", ws);
        // large-v3 (n_state 1280, 20 heads, 1500 frames) on an H100's 132 SMs and an RX 5700 XT's 40 CUs
        crossCase<__half>(1, 1500, 20, 64, 132, b, true);
        crossCase<__half>(1, 1500, 20, 64, 40, b, true);
        crossCase<__half>(5, 1500, 20, 64, 132, b, true); // 5 beams: 3 chunks
        crossCase<__half>(1, 1501, 12, 64, 132, b, true); // small, an odd window: the last chunk short
        crossCase<__half>(1, 1500, 20, 64, 132, b);       // the generic entry at 64
        crossCase<__half>(2, 1000, 3, 24, 132, b);        // odd head width, short last chunk
        crossCase<float>(1, 1500, 20, 64, 132, b, true);
        crossCase<float>(2, 1000, 3, 24, 132, b);
        if (ws == 64) break;
        crossCase<__half>(14, 300, 20, 64, 132, b, true); // pairs enough: one chunk, no partials
        crossCase<__half>(1, 1500, 6, 64, 132, b, true);  // tiny: 24 chunks of 63 keys
        crossCase<__half>(1, 1500, 20, 64, 132, 256, true);
        crossCase<__half>(3, 9, 2, 8, 132, b);
        crossCase<float>(1, 1500, 20, 64, 132, b); // a large-v3 token: 14 chunks
        crossCase<float>(1, 1500, 6, 64, 132, b);
        crossCase<float>(5, 1500, 20, 64, 132, b);
        crossCase<float>(1, 700, 20, 64, 40, b);
        crossCase<float>(3, 9, 2, 8, 132, b);
        crossCase<float>(14, 300, 20, 64, 132, b);
        crossCase<float>(1, 1500, 20, 64, 132, 256);
        crossCase<float>(5, 1500, 20, 64, 132, b, true);
        crossCase<float>(1, 700, 20, 64, 40, b, true);
        crossCase<float>(14, 300, 20, 64, 132, b, true);
        crossCase<float>(1, 1500, 20, 64, 132, 256, true);
        crossCase<float>(1, 1501, 12, 64, 132, b, true);
    }
    printf("%d failed\n", failures);
    return failures ? 1 : 0;
}
