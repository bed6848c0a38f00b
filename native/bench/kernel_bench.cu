// Times Dictum's encoder kernels at Whisper's shapes on an NVIDIA GPU and checks them against a
// float64 reference on sampled outputs (a measurement tool for docs/benchmarks.md, not a test).
//   nvcc -O3 -arch=sm_90 -I../src/kernels -o kernel_bench kernel_bench.cu && ./kernel_bench
//   (./kernel_bench --gemv-only: the decoder's GEMV shapes only; --attention-only: attention_f32 only,
//   e.g. under ncu: ncu --kernel-name attention_f32 --launch-skip 118 --launch-count 1 ./kernel_bench
//   --attention-only profiles the 20-head 1500 x 1500 case at 64 queries per block (--launch-skip 3: at 32);
//   each case launches 23 times; --step-only: the decoder step's layer norm / K/V-append fusion, one
//   whole decoder layer before and after, and the logits GEMV's variants, in CUDA graphs too)
// Prints, per kernel and shape: median ms of 20 launches (CUDA events), TFLOP/s of the useful
// work, and the normwise relative error of 512 sampled outputs against float64.
#include "../src/kernels/gemm.cu"
#include "../src/kernels/attention.cu"
// -DGEMV_BEFORE=path: time an older gemv.cu (its launch: one warp per column, blocks of 256) at the
// same shapes, for before/after tables (docs/benchmarks.md, "what moved what (GPU decoder)").
#ifdef GEMV_BEFORE
#define DG_STR2(p) #p
#define DG_STR(p) DG_STR2(p)
#include DG_STR(GEMV_BEFORE)
#else
#include "../src/kernels/gemv.cu"
#endif
#include "../src/kernels/cross_attention.cu"
#include "../src/kernels/layer_norm.cu"
#include "../src/kernels/kv_append.cu"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)

static float frand(unsigned& s) { s = s * 1664525u + 1013904223u; return ((s >> 8) / 16777216.0f) * 2.0f - 1.0f; }

template <class F>
static float median_ms(F launch) {
    for (int i = 0; i < 3; i++) launch();
    CK(cudaDeviceSynchronize());
    std::vector<float> v;
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (int i = 0; i < 20; i++) {
        cudaEventRecord(a);
        launch();
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms;
        cudaEventElapsedTime(&ms, a, b);
        v.push_back(ms);
    }
    CK(cudaGetLastError());
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Bench-only: gemm_f16_hilo's sm_80 body with x taken as hi alone (what f16 activations would
// give; not a product path).
extern "C" __global__ void __launch_bounds__(DG_GEMM_THREADS, 1) gemm_f16_hi_only(
        const __half* xhi, const __half* xlo, const __half* w, const __half* bias, float* out, int rows, int n,
        int k, int epilogue) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    dg_gemm_hilo_sm80<false>(xhi, xlo, w, bias, out, rows, n, k, epilogue, blockIdx.y * 128, blockIdx.x * 128);
#endif
}

enum GemmKind { G64, HILO, HILO_GEMM_ONLY, HILO_2PB, HI_ONLY };
static const char* gemm_name(GemmKind g) {
    switch (g) {
        case G64: return "gemm_f16 (64 tile)";
        case HILO: return "split + gemm_f16_hilo";
        case HILO_GEMM_ONLY: return "gemm_f16_hilo alone";
        case HILO_2PB: return "split + hilo_2blk";
        default: return "split + hi only (f16)";
    }
}

static void gemm_case(int rows, int n, int k, int epi, GemmKind kind) {
    const bool hilo = kind != G64;
    if (hilo && k % 8 != 0) return; // the backend's precondition for the hilo path
    unsigned s = 12345 + n + k;
    std::vector<float> x((size_t) rows * k);
    std::vector<__half> w((size_t) n * k), bias(n);
    for (auto& v : x) v = frand(s);
    for (auto& v : w) v = __float2half(frand(s) * 0.05f);
    for (auto& v : bias) v = __float2half(frand(s) * 0.1f);
    float *dx, *dout;
    __half *dw, *db, *dhi, *dlo;
    CK(cudaMalloc(&dx, x.size() * 4));
    CK(cudaMalloc(&dout, (size_t) rows * n * 4));
    CK(cudaMalloc(&dw, w.size() * 2));
    CK(cudaMalloc(&db, n * 2));
    CK(cudaMalloc(&dhi, x.size() * 2));
    CK(cudaMalloc(&dlo, x.size() * 2));
    CK(cudaMemcpy(dx, x.data(), x.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dw, w.data(), w.size() * 2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, bias.data(), n * 2, cudaMemcpyHostToDevice));
    const int side = hilo ? 128 : 64;
    dim3 grid((n + side - 1) / side, (rows + side - 1) / side);
    const long long count = (long long) rows * k;
    const int splitGrid = (int) std::min<long long>((count + 255) / 256, 65535);
    auto launch = [&] {
        if (kind != G64 && kind != HILO_GEMM_ONLY) split_f32_hilo<<<splitGrid, 256>>>(dx, dhi, dlo, count);
        switch (kind) {
            case G64: gemm_f16<<<grid, 256>>>(dx, dw, db, dout, rows, n, k, epi); break;
            case HILO:
            case HILO_GEMM_ONLY: gemm_f16_hilo<<<grid, 256>>>(dhi, dlo, dw, db, dout, rows, n, k, epi); break;
            case HILO_2PB: gemm_f16_hilo_2blk<<<grid, 256>>>(dhi, dlo, dw, db, dout, rows, n, k, epi); break;
            case HI_ONLY: gemm_f16_hi_only<<<grid, 256>>>(dhi, nullptr, dw, db, dout, rows, n, k, epi); break;
        }
    };
    if (kind == HILO_GEMM_ONLY) split_f32_hilo<<<splitGrid, 256>>>(dx, dhi, dlo, count);
    CK(cudaMemset(dout, 0xff, (size_t) rows * n * 4)); // poison: NaN wherever the kernel writes nothing
    float ms = median_ms([&] {
        if (epi == 2) CK(cudaMemset(dout, 0, (size_t) rows * n * 4));
        launch();
    });
    if (epi == 2) { // ADD: out = 0 + product, once more outside the timing
        CK(cudaMemset(dout, 0, (size_t) rows * n * 4));
        launch();
    }
    CK(cudaDeviceSynchronize());
    std::vector<float> out((size_t) rows * n);
    CK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
    size_t unwritten = 0; // outputs still poisoned (NaN) or not finite
    for (float v : out) unwritten += !std::isfinite(v);
    double num = 0, den = 0;
    for (int i = 0; i < 512; i++) {
        int r = (i * 7919) % rows, c = (i * 104729) % n;
        double v = __half2float(bias[c]);
        for (int j = 0; j < k; j++) v += (double) x[(size_t) r * k + j] * __half2float(w[(size_t) c * k + j]);
        if (epi == 1) v = 0.5 * v * erfc(-v / sqrt(2.0));
        double d = out[(size_t) r * n + c] - v;
        num += d * d;
        den += v * v;
    }
    printf("%-24s %5d x %5d x %5d epi %d: %8.3f ms %7.1f TFLOP/s  rel err %.2e%s\n", gemm_name(kind), rows, n, k,
           epi, ms, 2.0 * rows * n * k / ms / 1e9, sqrt(num / den),
           unwritten ? (" UNWRITTEN/NON-FINITE " + std::to_string(unwritten)).c_str() : "");
    cudaFree(dx); cudaFree(dout); cudaFree(dw); cudaFree(db); cudaFree(dhi); cudaFree(dlo);
}

// qpb: queries per block of the launch. GpuBackend's is 64 at head sizes <= 64 (the sm_80+ body);
// 32 makes every block run the sm_75 body (dg_attention_mma): the kernel before issue 12's sm_80
// body, timed in the same run for the before/after table.
static void attention_case(int queries, int keys, int heads, int hd, int causal, int qpb) {
    const int D = heads * hd;
    unsigned s = 777 + keys;
    std::vector<float> q((size_t) queries * D), k((size_t) keys * D), v((size_t) keys * D);
    for (auto& e : q) e = frand(s) * 2.0f;
    for (auto& e : k) e = frand(s) * 2.0f;
    for (auto& e : v) e = frand(s);
    float *dq, *dk, *dv, *dout;
    int* dkeys;
    CK(cudaMalloc(&dq, q.size() * 4));
    CK(cudaMalloc(&dk, k.size() * 4));
    CK(cudaMalloc(&dv, v.size() * 4));
    CK(cudaMalloc(&dout, q.size() * 4));
    CK(cudaMalloc(&dkeys, 4));
    CK(cudaMemcpy(dq, q.data(), q.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dk, k.data(), k.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dv, v.data(), v.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dkeys, &keys, 4, cudaMemcpyHostToDevice));
    // GpuBackend.attentionShared: the largest of the sm_75 body's, the sm_80 body's and the portable body's needs.
    int shared = std::max(std::max(4 * (80 * ((hd + 7) & ~7) + 256), hd <= 64 ? 2 * 4 * 32 * (((hd + 15) & ~15) + 8) : 0),
                          4 * 2 * 32 * (hd <= 64 ? 64 : 128));
    dim3 grid((queries + qpb - 1) / qpb, heads, 1);
    CK(cudaFuncSetAttribute(attention_f32, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
    float ms = median_ms([&] {
        attention_f32<<<grid, 128, shared>>>(dq, D, 1, queries, dk, dv, 0, D, dkeys, heads, hd, causal, dout);
    });
    std::vector<float> out(q.size());
    CK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
    double num = 0, den = 0;
    for (int i = 0; i < 64; i++) {
        int qi = (i * 7919) % queries, h = (i * 31) % heads;
        int vis = causal ? keys - queries + qi + 1 : keys;
        std::vector<double> p(vis);
        double mx = -1e300, sum = 0;
        for (int j = 0; j < vis; j++) {
            double d = 0;
            for (int c = 0; c < hd; c++) d += (double) q[(size_t) qi * D + h * hd + c] * k[(size_t) j * D + h * hd + c];
            p[j] = d / sqrt((double) hd);
            mx = std::max(mx, p[j]);
        }
        for (int j = 0; j < vis; j++) { p[j] = exp(p[j] - mx); sum += p[j]; }
        for (int c = 0; c < hd; c++) {
            double o = 0;
            for (int j = 0; j < vis; j++) o += p[j] * v[(size_t) j * D + h * hd + c];
            o /= sum;
            double d = out[(size_t) qi * D + h * hd + c] - o;
            num += d * d;
            den += o * o;
        }
    }
    printf("attention_f32 q %4d keys %4d heads %2d hd %3d causal %d qpb %d: %8.3f ms %7.1f TFLOP/s  rel err %.2e\n",
           queries, keys, heads, hd, causal, qpb, ms, 4.0 * queries * keys * hd * heads / ms / 1e9, sqrt(num / den));
    cudaFree(dq); cudaFree(dk); cudaFree(dv); cudaFree(dout); cudaFree(dkeys);
}

// The decoder's GEMV at batch 1 (and 5 beams): GB/s of f16 weights read (the floor's bytes). The
// launch is GpuBackend's (block GEMV_BLOCK = 128, grid gemvGrid); `block` overrides it to compare.
static void gemv_case(int rows, int n, int k, int block = 128) {
    unsigned s = 99 + n;
    std::vector<float> x((size_t) rows * k);
    std::vector<__half> w((size_t) n * k);
    for (auto& v : x) v = frand(s);
    for (auto& v : w) v = __float2half(frand(s) * 0.05f);
    float *dx, *dout;
    __half* dw;
    CK(cudaMalloc(&dx, x.size() * 4));
    CK(cudaMalloc(&dout, (size_t) rows * n * 4));
    CK(cudaMalloc(&dw, w.size() * 2));
    CK(cudaMemcpy(dx, x.data(), x.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dw, w.data(), w.size() * 2, cudaMemcpyHostToDevice));
    CK(cudaMemset(dout, 0xff, (size_t) rows * n * 4)); // NaN: an output never written shows
    int warps = block / 32, split = 1;
#ifdef GEMV_BEFORE
    block = 256;
    warps = 8;
#else
    while (split * 2 <= warps && (k / 8) / (split * 2) >= 4 * 32) split *= 2;
#endif
    int grid = std::min((n + warps / split - 1) / (warps / split), 65535);
    float ms = median_ms([&] { gemv_f16<<<grid, block>>>(dx, dw, nullptr, dout, rows, n, k, 0); });
    std::vector<float> out((size_t) rows * n), again((size_t) rows * n);
    CK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
    gemv_f16<<<grid, block>>>(dx, dw, nullptr, dout, rows, n, k, 0);
    CK(cudaMemcpy(again.data(), dout, again.size() * 4, cudaMemcpyDeviceToHost));
    bool same = std::equal(out.begin(), out.end(), again.begin(), [](float a, float b) {
        return memcmp(&a, &b, 4) == 0;
    });
    double num = 0, den = 0;
    for (int i = 0; i < 256; i++) {
        int r = i % rows, c = (i * 104729) % n;
        double v = 0;
        for (int j = 0; j < k; j++) v += (double) x[(size_t) r * k + j] * __half2float(w[(size_t) c * k + j]);
        num += (out[(size_t) r * n + c] - v) * (out[(size_t) r * n + c] - v);
        den += v * v;
    }
    printf("gemv_f16 %d x %5d x %5d block %3d split %d: %8.4f ms %7.0f GB/s of weights  rel err %.2e%s\n", rows, n,
           k, block, split, ms, 2.0 * n * k / ms / 1e6, sqrt(num / den), same ? "" : "  RERUN DIFFERS");
    cudaFree(dx); cudaFree(dout); cudaFree(dw);
}

// The decoder's other per-layer kernels at batch 1, as GpuBackend launches them: cross-attention
// over one encoded window (f32 keys transposed, f32 values) and a layer norm of one row.
static void decoder_step_kernels(int d, int heads, int keys) {
    const int hd = d / heads;
    unsigned s = 4242 + d;
    std::vector<float> q(d), kt((size_t) d * keys), v((size_t) keys * d);
    for (auto& e : q) e = frand(s);
    for (auto& e : kt) e = frand(s);
    for (auto& e : v) e = frand(s);
    float *dq, *dk, *dv, *dout;
    CK(cudaMalloc(&dq, q.size() * 4));
    CK(cudaMalloc(&dk, kt.size() * 4));
    CK(cudaMalloc(&dv, v.size() * 4));
    CK(cudaMalloc(&dout, (size_t) d * 4));
    CK(cudaMemcpy(dq, q.data(), q.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dk, kt.data(), kt.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dv, v.data(), v.size() * 4, cudaMemcpyHostToDevice));
    float* dpart;
    unsigned* dtickets;
    CK(cudaMalloc(&dpart, (size_t) 4 * 132 * 258 * 4));
    CK(cudaMalloc(&dtickets, 4 * 132 * 4));
    CK(cudaMemset(dtickets, 0, 4 * 132 * 4));
    std::vector<float> ref(d), got(d);
    // chunks = 1 with 256 threads is the launch before the split (one block per head); then the
    // split as GpuBackend.crossChunks picks it (2 × SMs blocks, chunks of ≥ 64 keys, 128 threads).
    int sms = 132;
    int split = std::max(1, std::min((2 * sms + heads - 1) / heads, (keys + 63) / 64));
    for (int chunks : {1, split}) {
        int block = chunks == 1 ? 256 : 128;
        int chunk = (keys + chunks - 1) / chunks;
        int shared = 4 * (chunk + hd + 64 + block);
        float ms = median_ms([&] {
            cross_attention_f32<<<dim3(heads, 1, chunks), block, shared>>>(dq, 1, dk, keys, dv, keys, heads, hd, dout,
                                                                          dpart, dtickets);
        });
        CK(cudaMemcpy(chunks == 1 ? ref.data() : got.data(), dout, d * 4, cudaMemcpyDeviceToHost));
        double num = 0, den = 0;
        for (int i = 0; i < d && chunks > 1; i++) {
            num += (got[i] - ref[i]) * (double) (got[i] - ref[i]);
            den += (double) ref[i] * ref[i];
        }
        printf("cross_attention_f32 1 row, %d keys, %2d heads x %d, %2d chunks, block %d: %8.4f ms %7.0f GB/s of f32 "
               "K/V  rel diff to 1 chunk %.2e\n", keys, heads, hd, chunks, block, ms, 2.0 * 4 * keys * d / ms / 1e6,
               den > 0 ? sqrt(num / den) : 0.0);
    }
    cudaFree(dpart);
    cudaFree(dtickets);
    __half *dg, *db;
    CK(cudaMalloc(&dg, d * 2));
    CK(cudaMalloc(&db, d * 2));
    CK(cudaMemset(dg, 0, d * 2));
    CK(cudaMemset(db, 0, d * 2));
    float ms = median_ms([&] { layer_norm_f32<<<1, 256>>>(dq, dg, db, dout, 1, d); });
    printf("layer_norm_f32 1 x %d: %8.4f ms\n", d, ms);
    cudaFree(dq); cudaFree(dk); cudaFree(dv); cudaFree(dout); cudaFree(dg); cudaFree(db);
}

#include "step_fusion_bench.cuh"

int main(int argc, char** argv) {
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("device: %s, %d SMs\n", p.name, p.multiProcessorCount);
    const bool gemvOnly = argc > 1 && strcmp(argv[1], "--gemv-only") == 0;
    const bool attentionOnly = argc > 1 && strcmp(argv[1], "--attention-only") == 0;
    if (argc > 1 && strcmp(argv[1], "--step-only") == 0) { // the decoder step's fusion (step_fusion_bench.cuh)
        stepbench::run();
        return 0;
    }
    if (!gemvOnly && !attentionOnly) {
        // The encoders' shapes (large-v3 d 1280, small 768, tiny 384; conv2's k 3840), odd sizes and
        // the ADD epilogue: the 64 tile, the split + 128 tile (and its GEMM alone, two blocks per SM,
        // and without the lo halves).
        const int shapes[][4] = {{1500, 1280, 1280, 0}, {1500, 5120, 1280, 1}, {1500, 1280, 5120, 2},
                                 {1500, 384, 384, 0},   {1500, 768, 768, 0},   {1500, 3072, 768, 1},
                                 {1500, 768, 3072, 2},  {1500, 1280, 3840, 0}, {33, 70, 65, 1},
                                 {200, 1282, 1284, 2},  {1501, 130, 72, 0}};
        for (auto& sh : shapes) {
            for (GemmKind g : {G64, HILO, HILO_GEMM_ONLY, HILO_2PB, HI_ONLY}) {
                gemm_case(sh[0], sh[1], sh[2], sh[3], g);
            }
        }
    }
    // The decoder's GEMVs: large-v3 / turbo (d 1280), small (768), tiny (384); the logits; beams.
    const int gemv_shapes[][3] = {{1, 1280, 1280}, {1, 5120, 1280}, {1, 1280, 5120}, {1, 51866, 1280},
                                  {1, 768, 768}, {1, 3072, 768}, {1, 768, 3072}, {1, 51866, 768},
                                  {1, 384, 384}, {1, 1536, 384}, {1, 384, 1536}, {1, 51866, 384},
                                  {5, 1280, 1280}, {5, 1280, 5120}, {5, 51866, 1280}, {3, 1000, 1288}};
    if (!attentionOnly) {
        for (auto& g : gemv_shapes) gemv_case(g[0], g[1], g[2]);
    }
    if (!gemvOnly && !attentionOnly) {
        for (int block : {64, 256}) {
            gemv_case(1, 1280, 1280, block);
            gemv_case(1, 1280, 5120, block);
            gemv_case(1, 51866, 1280, block);
        }
        decoder_step_kernels(1280, 20, 1500);
        decoder_step_kernels(384, 6, 1500);
    }
    if (!gemvOnly) {
#ifdef DG_ATTENTION_PORTABLE
        for (int qpb : {32}) { // the portable body takes exactly 32 queries per block
#else
        for (int qpb : {32, 64}) {
#endif
            attention_case(1500, 1500, 20, 64, 0, qpb);
            attention_case(1500, 1500, 6, 64, 0, qpb);
            attention_case(1500, 1500, 4, 33, 0, qpb);
            attention_case(100, 100, 6, 24, 1, qpb); // causal with 64-query blocks (a long prompt)
            attention_case(5, 448, 20, 64, 1, qpb);
        }
        attention_case(37, 100, 3, 128, 1, 32);
    }
    return 0;
}
