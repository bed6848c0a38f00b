// attention_rows.cu on the CPU (cuda_emu.h) against a float64 reference: beams whose rows lie anywhere
// in a shared cache and are reached through row tables (several beams naming the same rows, as after a
// beam-search reorder), head sizes 1..128 (the 16-byte and the element loads), causal, several tiles,
// at warp sizes 32 and 64 and with the blocks in both orders. Built and run by RowAttentionEmulatorTest:
//   g++ -std=c++20 -O2 -include cuda_emu.h -I<this dir> -I<src/kernels> attention_rows_emu.cpp
// Exit status 0 and "0 failed" when every output is within 1e-5 and the two block orders agree bit
// for bit.
#include "attention_rows.cu"
#include <cstdio>
#include <random>

struct Case {
    int batch, queries, keys, heads, hd, causal, kvPad;
};

static bool check(const Case& cs, int warp, unsigned seed) {
    warpSize = warp;
    const int d = cs.heads * cs.hd, kvStride = d + cs.kvPad, qStride = d + 3, ctx = cs.keys + 2;
    const int slots = cs.batch * ctx; // position-major slots, as KvDecoderState lays them out
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-2, 2);
    std::vector<float> q((size_t) cs.batch * cs.queries * qStride), k((size_t) slots * kvStride), v(k.size());
    for (auto& x : q) x = u(rng);
    for (auto& x : k) x = u(rng);
    for (auto& x : v) x = u(rng) / 2;
    // Each beam's history: every position from some beam's slot (any beam, so beams share rows).
    const int rowsStride = ctx + 1;
    std::vector<int> rows((size_t) cs.batch * rowsStride, -1), nk(cs.batch);
    for (int b = 0; b < cs.batch; b++) {
        nk[b] = std::max(cs.causal ? cs.queries : 1, cs.keys - (int) (rng() % std::min(3, cs.keys)));
        for (int j = 0; j < ctx; j++) rows[(size_t) b * rowsStride + j] = j * cs.batch + (int) (rng() % cs.batch);
    }
    std::vector<float> out[2];
    for (int order = 0; order < 2; order++) {
        out[order].assign((size_t) cs.batch * cs.queries * d, NAN);
        emu_launch({(unsigned) cs.queries, (unsigned) cs.heads, (unsigned) cs.batch}, DG_RT, order == 1, [&] {
            attention_rows_f32(q.data(), qStride, cs.queries, k.data(), v.data(), kvStride, rows.data(), rowsStride,
                               nk.data(), cs.heads, cs.hd, cs.causal, out[order].data());
        });
    }
    double num = 0, den = 0;
    for (int b = 0; b < cs.batch; b++) for (int h = 0; h < cs.heads; h++) for (int i = 0; i < cs.queries; i++) {
        const int vis = cs.causal ? nk[b] - cs.queries + i + 1 : nk[b];
        std::vector<double> s(vis);
        double mx = -1e300;
        for (int j = 0; j < vis; j++) {
            const size_t row = (size_t) rows[(size_t) b * rowsStride + j] * kvStride + h * cs.hd;
            double a = 0;
            for (int c = 0; c < cs.hd; c++) a += (double) q[(size_t) (b * cs.queries + i) * qStride + h * cs.hd + c] * k[row + c];
            s[j] = a / std::sqrt((double) cs.hd);
            mx = std::max(mx, s[j]);
        }
        double sum = 0;
        for (auto& x : s) { x = std::exp(x - mx); sum += x; }
        for (int c = 0; c < cs.hd; c++) {
            double o = 0;
            for (int j = 0; j < vis; j++) o += s[j] * v[(size_t) rows[(size_t) b * rowsStride + j] * kvStride + h * cs.hd + c];
            o /= sum;
            const double g = out[0][(size_t) (b * cs.queries + i) * d + h * cs.hd + c];
            num += (g - o) * (g - o);
            den += o * o;
        }
    }
    const double err = std::sqrt(num / den);
    const bool same = std::memcmp(out[0].data(), out[1].data(), out[0].size() * sizeof(float)) == 0;
    const bool ok = err <= 1e-5 && same;
    printf("warp %d batch %d queries %d keys %3d heads %d hd %3d causal %d kvPad %d: rel err %.2e%s %s\n", warp,
           cs.batch, cs.queries, cs.keys, cs.heads, cs.hd, cs.causal, cs.kvPad, err,
           same ? "" : " (block orders differ)", ok ? "ok" : "FAIL");
    return ok;
}

int main() {
    const Case cases[] = {
        {5, 1, 448, 3, 64, 1, 0},  // a beam-5 step at the full text context: 4 tiles, 16-byte loads
        {5, 1, 37, 3, 64, 1, 3},   // a short history, unaligned rows (element loads)
        {5, 4, 9, 2, 64, 1, 0},    // several queries per beam (a prompt after a reorder), causal
        {3, 2, 130, 2, 17, 0, 1},  // odd head size: 7 groups of 17 in P.V, a partial second tile
        {2, 1, 200, 2, 24, 1, 0},  // head size 24: 5 groups
        {2, 3, 65, 1, 96, 1, 0},   // head size 96: one group, 32 threads idle in P.V
        {1, 1, 129, 2, 128, 0, 4}, // the largest head size
        {1, 1, 1, 1, 1, 0, 0},     // one key of one channel
    };
    int bad = 0;
    unsigned seed = 7;
    for (int warp : {32, 64}) {
        for (const Case& c : cases) bad += !check(c, warp, seed++);
    }
    printf("%d failed\n", bad);
    return bad != 0;
}
