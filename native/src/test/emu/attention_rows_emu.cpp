// attention_rows.cu on the CPU (cuda_emu.h) against a float64 reference, both entries: attention_rows_f32
// and attention_rows_f16kv (the GPU's f16 self K/V caches, issue 22), each through row tables (beams
// whose rows lie anywhere in a shared cache, several beams naming the same rows, as after a beam-search
// reorder) and strided (rows == null: sequence b's rows from b * seqStride, as a prompt, a greedy step
// and beams before a reorder read them); head sizes 1..128 (the 16/8-byte and the element loads),
// causal, several tiles, at warp sizes 32 and 64 and with the blocks in both orders. Built and run by
// RowAttentionEmulatorTest:
//   g++ -std=c++20 -O2 -I<cuda>/include -I<this dir> -I<src/kernels> attention_rows_emu.cpp
// Exit status 0 and "0 failed" when every output is within 1e-5 of float64 over the values the kernel
// reads (f16 ones widened), the f16 entry's within 1e-3 of float64 over the f32 values before they were
// rounded (the storage's cost, printed), and the two block orders agree bit for bit.
#include <cuda_fp16.h>
#include <vector_functions.h>
#include <vector_types.h>

#include "cuda_emu.h"

#include "attention_rows.cu"
#include <cstdio>
#include <random>
#include <type_traits>

struct Case {
    int batch, queries, keys, heads, hd, causal, kvPad;
};

static double widened(float x) { return x; }
static double widened(__half x) { return __half2float(x); }

// ‖out − ref‖ / ‖ref‖ of attention in float64 over k and v as given; sequence b's key j at element
// base(b, j) (a row's first channel).
template <typename T, typename Base>
static double relErr(const std::vector<float>& out, const std::vector<float>& q, const std::vector<T>& k,
                     const std::vector<T>& v, const Case& cs, int qStride, const std::vector<int>& nk, Base base) {
    const int d = cs.heads * cs.hd;
    double num = 0, den = 0;
    for (int b = 0; b < cs.batch; b++) for (int h = 0; h < cs.heads; h++) for (int i = 0; i < cs.queries; i++) {
        const int vis = cs.causal ? nk[b] - cs.queries + i + 1 : nk[b];
        std::vector<double> s(vis);
        double mx = -1e300;
        for (int j = 0; j < vis; j++) {
            const size_t row = base(b, j) + h * cs.hd;
            double a = 0;
            for (int c = 0; c < cs.hd; c++) a += (double) q[(size_t) (b * cs.queries + i) * qStride + h * cs.hd + c] * widened(k[row + c]);
            s[j] = a / std::sqrt((double) cs.hd);
            mx = std::max(mx, s[j]);
        }
        double sum = 0;
        for (auto& x : s) { x = std::exp(x - mx); sum += x; }
        for (int c = 0; c < cs.hd; c++) {
            double o = 0;
            for (int j = 0; j < vis; j++) o += s[j] * widened(v[base(b, j) + h * cs.hd + c]);
            o /= sum;
            const double e = out[(size_t) (b * cs.queries + i) * d + h * cs.hd + c] - o;
            num += std::isnan(e) ? INFINITY : e * e;
            den += o * o;
        }
    }
    return std::sqrt(num / den);
}

// KV: how the caches are stored (float: attention_rows_f32; __half: attention_rows_f16kv). table: through
// row tables, else strided (rows == null).
template <typename KV>
static bool check(const Case& cs, bool table, int warp, unsigned seed) {
    const bool half = std::is_same_v<KV, __half>;
    warpSize = warp;
    const int d = cs.heads * cs.hd, kvStride = d + cs.kvPad, qStride = d + 3, ctx = cs.keys + 2;
    const int slots = cs.batch * ctx; // position-major slots, as KvDecoderState lays them out
    const long long seqStride = table ? 0 : (long long) ctx * kvStride; // strided: a block of ctx rows per sequence
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-2, 2);
    std::vector<float> q((size_t) cs.batch * cs.queries * qStride), k32((size_t) slots * kvStride), v32(k32.size());
    for (auto& x : q) x = u(rng);
    for (auto& x : k32) x = u(rng);
    for (auto& x : v32) x = u(rng) / 2;
    std::vector<KV> k(k32.size()), v(v32.size());
    for (size_t i = 0; i < k.size(); i++) {
        if constexpr (std::is_same_v<KV, __half>) {
            k[i] = __float2half_rn(k32[i]);
            v[i] = __float2half_rn(v32[i]);
        } else {
            k[i] = k32[i];
            v[i] = v32[i];
        }
    }
    // Each beam's history: every position from some beam's slot (any beam, so beams share rows).
    const int rowsStride = ctx + 1;
    std::vector<int> rows((size_t) cs.batch * rowsStride, -1), nk(cs.batch);
    for (int b = 0; b < cs.batch; b++) {
        nk[b] = std::max(cs.causal ? cs.queries : 1, cs.keys - (int) (rng() % std::min(3, cs.keys)));
        for (int j = 0; j < ctx; j++) rows[(size_t) b * rowsStride + j] = j * cs.batch + (int) (rng() % cs.batch);
    }
    auto base = [&](int b, int j) -> size_t {
        return table ? (size_t) rows[(size_t) b * rowsStride + j] * kvStride : (size_t) (b * seqStride + (long long) j * kvStride);
    };
    std::vector<float> out[2];
    for (int order = 0; order < 2; order++) {
        out[order].assign((size_t) cs.batch * cs.queries * d, NAN);
        emu_launch({(unsigned) cs.queries, (unsigned) cs.heads, (unsigned) cs.batch}, DG_RT, order == 1, [&] {
            const int* rt = table ? rows.data() : nullptr;
            if constexpr (std::is_same_v<KV, __half>) {
                attention_rows_f16kv(q.data(), qStride, cs.queries, k.data(), v.data(), kvStride, rt, rowsStride,
                                     seqStride, nk.data(), cs.heads, cs.hd, cs.causal, out[order].data());
            } else {
                attention_rows_f32(q.data(), qStride, cs.queries, k.data(), v.data(), kvStride, rt, rowsStride,
                                   seqStride, nk.data(), cs.heads, cs.hd, cs.causal, out[order].data());
            }
        });
    }
    const double err = relErr(out[0], q, k, v, cs, qStride, nk, base);
    const double storage = half ? relErr(out[0], q, k32, v32, cs, qStride, nk, base) : 0;
    const bool same = std::memcmp(out[0].data(), out[1].data(), out[0].size() * sizeof(float)) == 0;
    const bool ok = err <= 1e-5 && storage <= 1e-3 && same;
    printf("attention_rows_%s %s warp %d batch %d queries %d keys %3d heads %d hd %3d causal %d kvPad %d: rel err %.2e",
           half ? "f16kv" : "f32", table ? "table  " : "strided", warp, cs.batch, cs.queries, cs.keys, cs.heads, cs.hd,
           cs.causal, cs.kvPad, err);
    if (half) printf(", against the f32 K/V %.2e", storage);
    printf("%s %s\n", same ? "" : " (block orders differ)", ok ? "ok" : "FAIL");
    return ok;
}

int main() {
    const Case cases[] = {
        {5, 1, 448, 3, 64, 1, 0},  // a beam-5 step at the full text context: 4 tiles, vector loads
        {5, 1, 37, 3, 64, 1, 3},   // a short history, unaligned rows (element loads)
        {5, 4, 9, 2, 64, 1, 0},    // several queries per beam (a prompt after a reorder), causal
        {3, 2, 130, 2, 17, 0, 1},  // odd head size: 7 groups of 17 in P.V, a partial second tile
        {2, 1, 200, 2, 24, 1, 0},  // head size 24: 5 groups
        {2, 3, 65, 1, 96, 1, 0},   // head size 96: one group, 32 threads idle in P.V
        {1, 1, 129, 2, 128, 0, 4}, // the largest head size
        {1, 1, 1, 1, 1, 0, 0},     // one key of one channel
        {1, 4, 224, 2, 64, 1, 0},  // a prompt of one sequence (strided: the greedy decoder's)
    };
    int bad = 0;
    unsigned seed = 7;
    for (int warp : {32, 64}) {
        for (const Case& c : cases) {
            for (bool table : {true, false}) {
                bad += !check<float>(c, table, warp, seed++);
                bad += !check<__half>(c, table, warp, seed++);
            }
        }
    }
    printf("%d failed\n", bad);
    return bad != 0;
}
