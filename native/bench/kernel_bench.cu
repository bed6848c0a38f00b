// Times Dictum's encoder kernels at Whisper's shapes on an NVIDIA GPU and checks them against a
// float64 reference on sampled outputs (a measurement tool for docs/benchmarks.md, not a test).
//   nvcc -O3 -arch=sm_90 -I../src/kernels -o kernel_bench kernel_bench.cu && ./kernel_bench
// Prints, per kernel and shape: median ms of 20 launches (CUDA events), TFLOP/s of the useful
// work, and the normwise relative error of 512 sampled outputs against float64.
#include "../src/kernels/gemm.cu"
#include "../src/kernels/attention.cu"
#include "../src/kernels/gemv.cu"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
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

static void gemm_case(int rows, int n, int k, int epi) {
    unsigned s = 12345 + n + k;
    std::vector<float> x((size_t) rows * k);
    std::vector<__half> w((size_t) n * k), bias(n);
    for (auto& v : x) v = frand(s);
    for (auto& v : w) v = __float2half(frand(s) * 0.05f);
    for (auto& v : bias) v = __float2half(frand(s) * 0.1f);
    float *dx, *dout;
    __half *dw, *db;
    CK(cudaMalloc(&dx, x.size() * 4));
    CK(cudaMalloc(&dout, (size_t) rows * n * 4));
    CK(cudaMalloc(&dw, w.size() * 2));
    CK(cudaMalloc(&db, n * 2));
    CK(cudaMemcpy(dx, x.data(), x.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dw, w.data(), w.size() * 2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, bias.data(), n * 2, cudaMemcpyHostToDevice));
    dim3 grid((n + 63) / 64, (rows + 63) / 64);
    float ms = median_ms([&] { gemm_f16<<<grid, 256>>>(dx, dw, db, dout, rows, n, k, epi); });
    std::vector<float> out((size_t) rows * n);
    CK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
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
    printf("gemm_f16 %5d x %5d x %5d epi %d: %8.3f ms %7.1f TFLOP/s  rel err %.2e\n", rows, n, k, epi, ms,
           2.0 * rows * n * k / ms / 1e9, sqrt(num / den));
    cudaFree(dx); cudaFree(dout); cudaFree(dw); cudaFree(db);
}

static void attention_case(int queries, int keys, int heads, int hd, int causal) {
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
    int shared = 4 * (32 * (3 * hd + 1) + 32 * 33 + 3 * 32);
    dim3 grid((queries + 31) / 32, heads, 1);
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
    printf("attention_f32 q %4d keys %4d heads %2d hd %3d causal %d: %8.3f ms %7.1f TFLOP/s  rel err %.2e\n", queries,
           keys, heads, hd, causal, ms, 4.0 * queries * keys * hd * heads / ms / 1e9, sqrt(num / den));
    cudaFree(dq); cudaFree(dk); cudaFree(dv); cudaFree(dout); cudaFree(dkeys);
}

// The decoder's GEMV at batch 1 (and 5 beams): GB/s of f16 weights read (the floor's bytes).
static void gemv_case(int rows, int n, int k) {
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
    int grid = std::min((n + 7) / 8, 65535);
    float ms = median_ms([&] { gemv_f16<<<grid, 256>>>(dx, dw, nullptr, dout, rows, n, k, 0); });
    std::vector<float> out((size_t) rows * n);
    CK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
    double num = 0, den = 0;
    for (int i = 0; i < 256; i++) {
        int r = i % rows, c = (i * 104729) % n;
        double v = 0;
        for (int j = 0; j < k; j++) v += (double) x[(size_t) r * k + j] * __half2float(w[(size_t) c * k + j]);
        num += (out[(size_t) r * n + c] - v) * (out[(size_t) r * n + c] - v);
        den += v * v;
    }
    printf("gemv_f16 %d x %5d x %5d: %8.4f ms %7.0f GB/s of weights  rel err %.2e\n", rows, n, k, ms,
           2.0 * n * k / ms / 1e6, sqrt(num / den));
    cudaFree(dx); cudaFree(dout); cudaFree(dw);
}

int main() {
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("device: %s, %d SMs\n", p.name, p.multiProcessorCount);
    gemm_case(1500, 1280, 1280, 0);
    gemm_case(1500, 5120, 1280, 1);
    gemm_case(1500, 1280, 5120, 0);
    gemm_case(1500, 384, 384, 0);
    gemm_case(1500, 768, 3072, 0);
    gemm_case(1500, 1280, 3840, 0);
    gemm_case(33, 70, 65, 1);
    gemv_case(1, 1280, 1280);
    gemv_case(1, 5120, 1280);
    gemv_case(1, 1280, 5120);
    gemv_case(1, 51866, 1280);
    gemv_case(5, 51866, 1280);
    gemv_case(3, 1000, 1288);
    attention_case(1500, 1500, 20, 64, 0);
    attention_case(1500, 1500, 6, 64, 0);
    attention_case(1500, 1500, 4, 33, 0);
    attention_case(5, 448, 20, 64, 1);
    attention_case(37, 100, 3, 128, 1);
    return 0;
}
