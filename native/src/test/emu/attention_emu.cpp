// attention.cu on the CPU (cuda_emu.h) against a float64 reference, at the op tests' shapes scaled
// down (every path: head sizes 1..128, causal, unaligned rows, partial tiles). Built and run by
// PortableAttentionEmulatorTest, for the portable (AMD) body:
//   g++ -std=c++20 -O2 -DDG_ATTENTION_PORTABLE [-D__gfx1100__] -include cuda_emu.h -I<this dir>
//       -I<src/kernels> attention_emu.cpp
// and for the NVIDIA tensor-core bodies, their mma/ldmatrix emulated by mma_emu.h (CUDA's headers
// for __half; the arch picks the body: 750 the sm_75 body alone, 800 the sm_80 body where a block
// has 33..64 queries at head size <= 64):
//   g++ -std=c++20 -O2 -DDG_EMU_MMA -DDG_EMU_ARCH=800 -I<cuda>/include -I<this dir> -I<src/kernels>
//       attention_emu.cpp
// launched as GpuBackend launches each (the portable body 32 queries per block; the NVIDIA body 64
// at head size <= 64, else 32, where it runs the portable body). "hd64" as argument runs the head-size-64 shapes only (the
// -D__gfx1100__ build, whose 64 path takes 2 queries per lane). Exit status 0 and "0 failed" when
// every output is within 1e-5.
#ifdef DG_EMU_MMA
#include <cuda_fp16.h>
#include <vector_functions.h>
#include <vector_types.h>
#include "cuda_emu.h"
#include "mma_emu.h"
#define __CUDA_ARCH__ DG_EMU_ARCH // after CUDA's headers, whose host code must not see it
alignas(16) unsigned char dg_smem[48 * 1024]; // the dynamic shared memory of one block
alignas(16) float dg_psm[2 * 32 * 128]; // the same for the portable body (the NVIDIA entry's head sizes > 64)
#define DG_EMU_SMEM dg_smem
#define DG_EMU_QPB(hd) ((hd) <= 64 ? 64 : 32)
#else
alignas(16) float dg_psm[2 * 32 * 128]; // the dynamic shared memory of one block
#define DG_EMU_SMEM dg_psm
#define DG_EMU_QPB(hd) 32
#endif
// attention.cu's only shared memory is `extern __shared__` (dynamic): the array above. cuda_emu.h's
// `static` (for shared arrays declared inside a kernel) cannot stand beside `extern`.
#undef __shared__
#define __shared__
#include "attention.cu"
#include <cstdio>
#include <random>
static double check(int batch, int queries, int keys, int heads, int hd, int causal, bool packed) {
    int d = heads * hd, qStride = packed ? d : d + 5, kvStride = packed ? d : d + 3; long kvOff = packed ? 0 : 7;
    long kvBatch = (long) (keys + 2) * kvStride;
    std::mt19937 rng(batch * 131 + queries * 7 + keys + hd); std::uniform_real_distribution<float> u(-2, 2);
    std::vector<float> q((size_t) batch * queries * qStride), k(kvOff + batch * kvBatch), v(k.size()), out((size_t) batch * queries * d, NAN);
    for (auto& x : q) x = u(rng); for (auto& x : k) x = u(rng); for (auto& x : v) x = u(rng) / 2;
    std::vector<int> nk(batch); for (int b = 0; b < batch; b++) nk[b] = std::max(causal ? queries : 1, keys - (int) (rng() % std::min(3, keys)));
    const int qpb = DG_EMU_QPB(hd);
    emu_launch({(unsigned) ((queries + qpb - 1) / qpb), (unsigned) heads, (unsigned) batch}, 128, false,
        [&] { attention_f32(q.data(), qStride, batch, queries, k.data() + kvOff, v.data() + kvOff, kvBatch, kvStride, nk.data(), heads, hd, causal, out.data()); },
        [] { // poisoned per block: NaN where nothing was staged
            std::memset(DG_EMU_SMEM, 0xff, sizeof DG_EMU_SMEM);
            std::memset(dg_psm, 0xff, sizeof dg_psm);
        });
    double num = 0, den = 0;
    for (int b = 0; b < batch; b++) for (int h = 0; h < heads; h++) for (int i = 0; i < queries; i++) {
        int vis = causal ? nk[b] - queries + i + 1 : nk[b];
        std::vector<double> s(vis); double mx = -1e300;
        for (int j = 0; j < vis; j++) { double a = 0; for (int c = 0; c < hd; c++) a += (double) q[(size_t) (b * queries + i) * qStride + h * hd + c] * k[kvOff + b * kvBatch + (long) j * kvStride + h * hd + c]; s[j] = a / std::sqrt((double) hd); mx = std::max(mx, s[j]); }
        double sum = 0; for (auto& x : s) { x = std::exp(x - mx); sum += x; }
        for (int c = 0; c < hd; c++) { double o = 0; for (int j = 0; j < vis; j++) o += s[j] * v[kvOff + b * kvBatch + (long) j * kvStride + h * hd + c]; o /= sum;
            double g = out[(size_t) (b * queries + i) * d + h * hd + c]; num += (g - o) * (g - o); den += o * o; }
    }
    double err = std::sqrt(num / den);
    printf("batch %d queries %4d keys %4d heads %2d hd %3d causal %d packed %d: rel err %.2e %s\n", batch, queries, keys, heads, hd, causal, packed, err, err <= 1e-5 ? "ok" : "FAIL");
    return err;
}
int main(int argc, char** argv) {
    const bool hd64Only = argc > 1 && std::strcmp(argv[1], "hd64") == 0;
    struct Case { int batch, queries, keys, heads, hd, causal; bool packed; };
    const Case cases[] = {
        {1, 150, 150, 2, 64, 0, true},  // the encoder's self-attention, several tiles and query blocks
        {1, 150, 150, 2, 64, 0, false}, // the same with unaligned rows (element loads)
        {5, 1, 37, 3, 64, 1, false},    // a decoded token, 5 beams
        {1, 4, 4, 2, 64, 1, true},      // the prompt
        {1, 6, 6, 1, 64, 0, true},      // tiny: 6 x 64
        {1, 100, 300, 1, 64, 1, true},  // causal over several tiles
        {1, 40, 50, 2, 17, 0, false},   // NVIDIA: the sm_80 body with an odd head size, element loads
        {1, 70, 70, 1, 33, 1, true},    // and with head size 33 (3 k-steps), causal
        {2, 64, 64, 1, 64, 1, true},    // exactly one 64-query block, causal
        {1, 65, 97, 1, 64, 0, false},   // a 64-query block and a 1-query block (the sm_75 body)
        {3, 3, 40, 3, 17, 1, false},    // odd head size
        {2, 45, 77, 3, 24, 1, true},    // odd sizes, a partial tile
        {2, 33, 65, 2, 96, 0, false},   // a larger head size (the 128 path)
        {1, 70, 129, 2, 128, 0, true},  // the largest head size
        {1, 1, 1, 1, 1, 0, false},
    };
    int bad = 0;
    for (const Case& c : cases) {
        if (hd64Only && c.hd != 64) continue;
        bad += !(check(c.batch, c.queries, c.keys, c.heads, c.hd, c.causal, c.packed) <= 1e-5);
    }
    printf("%d failed\n", bad);
    return bad != 0;
}
