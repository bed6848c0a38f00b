// gemm_f16 and conv1d_gelu_f16 as every AMD target builds them (gemm_tile_portable_8x8.cuh: the 128 x 128
// tile, 8 x 8 per lane, two LDS buffers) on the CPU (cuda_emu.h) against float64, launched as GpuBackend
// launches them: partial tiles both ways, k not a multiple of the 16-wide slice, odd k and n (the element
// paths), x not 16-byte aligned, one slice, every epilogue with and without bias; the convolution's
// implicit im2col at Whisper's first layer (80 mels, stride 1) and second (stride 2), both input
// layouts. Outputs start as NaN (ADD: as given values) and a guard of sentinels follows them; every
// block's LDS starts as NaN. Built and run by PortableGemmEmulatorTest, at wave32 and wave64
// (argument "64"; the body uses no wave-wide operation, so the two must agree):
//   g++ -std=c++20 -O2 -DDG_EMU_MMA -I<cuda>/include -I<this dir> -I<src/kernels> gemm_portable_emu.cpp
// Exit status 0 and "0 failed" when every output is within 1e-5 (normwise) and the guards hold.
#include <cuda_fp16.h>
#include <vector_functions.h>
#include <vector_types.h>
#include "cuda_emu.h"
#include "mma_emu.h"
// gemm.cu includes dg_split.cuh, whose dg_split mma_emu.h also defines (for the NVIDIA bodies that
// gemm.cu's other entries instantiate): the kernel's copy is renamed here, the emulator's is used.
#define dg_split dg_split_of_the_kernel_source
#include "dg_split.cuh"
#undef dg_split
#define DG_GEMM_PORTABLE
// Every block's LDS starts as NaN (blocks run one at a time; the arrays are the body's statics): a
// read of anything the block did not stage shows as a non-finite output.
#define DG_EMU_POISON_SHARED(array)                                                                    \
    if (threadIdx.x == 0) std::memset(array, 0xff, sizeof array);                                      \
    __syncthreads()
#include "gemm.cu"
#include "conv1d_gelu.cu"
#include <cstdio>
#include <cstring>
#include <random>

static const float SENTINEL = 12345.0f;
static const int GUARD = 64;

// The launch grid of both entries (GpuBackend.gemmTile on an AMD code object).
static EmuDim grid(int rows, int n) {
    return {(unsigned) ((n + DG_GEMM_F16_TILE - 1) / DG_GEMM_F16_TILE),
            (unsigned) ((rows + DG_GEMM_F16_TILE - 1) / DG_GEMM_F16_TILE), 1};
}

static double gelu(double v) { return 0.5 * v * std::erfc(-v / std::sqrt(2.0)); }

// Normwise error of out (rows x n, then the guard) against want; NaN or a touched guard fails.
static bool verdict(const char* what, const std::vector<float>& out, const std::vector<double>& want) {
    double num = 0, den = 0;
    size_t bad = 0;
    for (size_t i = 0; i < want.size(); i++) {
        bad += !std::isfinite(out[i]);
        num += (out[i] - want[i]) * (out[i] - want[i]);
        den += want[i] * want[i];
    }
    for (size_t i = want.size(); i < out.size(); i++) bad += out[i] != SENTINEL;
    const double err = std::sqrt(num / std::max(den, 1e-300));
    const bool ok = bad == 0 && err <= 1e-5;
    printf("%s: rel err %.2e%s %s\n", what, err, bad ? " NON-FINITE OR GUARD WRITTEN" : "", ok ? "ok" : "FAIL");
    return ok;
}

static bool gemm(int rows, int n, int k, int xOffset, int epi, bool withBias) {
    std::mt19937 rng(rows * 31 + n * 7 + k + epi);
    std::uniform_real_distribution<float> u(-1, 1);
    std::vector<float> x(xOffset + (size_t) rows * k), init((size_t) rows * n);
    std::vector<__half> w((size_t) n * k), bias(n);
    for (auto& v : x) v = u(rng) * 3;
    for (auto& v : w) v = __float2half(u(rng) * 0.05f);
    for (auto& v : bias) v = __float2half(u(rng) * 0.1f);
    for (auto& v : init) v = u(rng);
    std::vector<float> out(init.size() + GUARD, SENTINEL);
    std::fill(out.begin(), out.begin() + init.size(), epi == DG_EPI_ADD ? 0.0f : NAN);
    if (epi == DG_EPI_ADD) std::copy(init.begin(), init.end(), out.begin());
    const float* xs = x.data() + xOffset;
    const __half* b = withBias ? bias.data() : nullptr;
    emu_launch(grid(rows, n), DG_GEMM_THREADS, false, [&] { gemm_f16(xs, w.data(), b, out.data(), rows, n, k, epi); });
    std::vector<double> want(init.size());
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < n; c++) {
            double v = b ? __half2float(bias[c]) : 0.0;
            for (int i = 0; i < k; i++) v += (double) xs[(size_t) r * k + i] * __half2float(w[(size_t) c * k + i]);
            if (epi == DG_EPI_GELU) v = gelu(v);
            if (epi == DG_EPI_ADD) v += init[(size_t) r * n + c];
            want[(size_t) r * n + c] = v;
        }
    }
    char what[160];
    snprintf(what, sizeof what, "gemm_f16 %4d x %4d x %4d x+%d epi %d bias %d", rows, n, k, xOffset, epi, withBias);
    return verdict(what, out, want);
}

static bool conv(int inChannels, int inFrames, int outChannels, int stride, bool channelMajor) {
    std::mt19937 rng(inChannels * 13 + inFrames + outChannels * 3 + stride);
    std::uniform_real_distribution<float> u(-1, 1);
    const int k = inChannels * 3;
    const int outFrames = (inFrames - 1) / stride + 1;
    std::vector<float> in((size_t) inChannels * inFrames);
    std::vector<__half> w((size_t) outChannels * k), bias(outChannels);
    for (auto& v : in) v = u(rng) * 2;
    for (auto& v : w) v = __float2half(u(rng) * 0.1f);
    for (auto& v : bias) v = __float2half(u(rng) * 0.1f);
    std::vector<float> out((size_t) outFrames * outChannels + GUARD, SENTINEL);
    std::fill(out.begin(), out.end() - GUARD, NAN);
    emu_launch(grid(outFrames, outChannels), DG_GEMM_THREADS, false,
               [&] {
                   conv1d_gelu_f16(in.data(), channelMajor, inChannels, inFrames, w.data(), bias.data(), stride,
                                   out.data(), outChannels, outFrames);
               });
    std::vector<double> want((size_t) outFrames * outChannels);
    for (int t = 0; t < outFrames; t++) {
        for (int o = 0; o < outChannels; o++) {
            double v = __half2float(bias[o]);
            for (int c = 0; c < inChannels; c++) {
                for (int tap = 0; tap < 3; tap++) {
                    const int f = t * stride + tap - 1;
                    if (f < 0 || f >= inFrames) continue;
                    const float xv = channelMajor ? in[(size_t) c * inFrames + f] : in[(size_t) f * inChannels + c];
                    v += (double) xv * __half2float(w[(size_t) o * k + c * 3 + tap]);
                }
            }
            want[(size_t) t * outChannels + o] = gelu(v);
        }
    }
    char what[160];
    snprintf(what, sizeof what, "conv1d_gelu_f16 in %3d x %3d out %3d stride %d channel-major %d", inChannels,
             inFrames, outChannels, stride, channelMajor);
    return verdict(what, out, want);
}

int main(int argc, char** argv) {
    warpSize = argc > 1 ? std::atoi(argv[1]) : 32;
    printf("wave%d\n", warpSize);
    int bad = 0;
    // rows, n, k, x offset: an encoder projection scaled down (300 rows: a partial row tile), partial
    // tiles and k % 16 == 8, one slice, odd k (element loads of x and w) with n % 4 != 0 (element
    // stores), an odd n (the vocabulary's 51865) with k = 80 (the mel count), x misaligned, n = 1.
    const int shapes[][4] = {{300, 384, 384, 0}, {150, 200, 264, 0}, {129, 65, 8, 0}, {130, 130, 129, 0},
                             {40, 259, 80, 0},   {100, 132, 96, 3},  {9, 1, 32, 0}};
    for (auto& s : shapes) {
        for (int epi = 0; epi < 3; epi++) {
            for (bool withBias : {true, false}) {
                bad += !gemm(s[0], s[1], s[2], s[3], epi, withBias);
            }
        }
    }
    // Whisper's stem scaled down: conv1 (80 mels, stride 1; the mel input is channel-major), conv2
    // (stride 2, frame-major), and odd sizes.
    bad += !conv(80, 300, 96, 1, true);
    bad += !conv(96, 300, 96, 2, false);
    bad += !conv(7, 33, 130, 2, true);
    printf("%d failed\n", bad);
    return bad != 0;
}
