// out = epilogue(x · wᵀ + bias) for few rows with w held on the device as ggml q8_0 blocks (issue 22:
// large-v3-turbo's weights take ~830 MiB as q8_0 instead of ~1550 as f16: the model fits 1.8 GB). A
// block is 34 bytes: an f16 scale d and 32 int8 q; a row of k values (k % 32 == 0) is k / 32 blocks.
// Each weight is d · q computed in f32 exactly as the CPU's Dequant.java (the scale widened from f16,
// q widened from int8, one f32 multiply, no contraction: it is fmaf's operand), then fused into an f32
// accumulator against x. No weight is ever rounded to f16, so the products are the CPU's values'.
//
// The work split is gemv.cu's (gemv_common.cuh): dg_gemv_split warps per output column for long rows,
// each a contiguous slice of the row, the slices' sums added in slice order through shared memory (no
// atomics: the same bits every run), grid-stride over column groups, up to DG_GEMV_ROWS rows of x per
// pass over w (further rows in further passes: the row of w is then re-read from the caches). The split
// is counted in units of 8 values, as gemv.cu's 16-byte loads, so LaunchGeometry.gemvSplit / gemvGrid
// size this grid too.
//
// Loads: a lane takes 8 consecutive values of the row per step, a quarter of a block (4 lanes per
// block, so a warp reads W / 4 whole, contiguous blocks per step): the block's scale (one 2-byte load,
// the same address for the 4 lanes) and its 8 quants as four 2-byte loads. Blocks are 34 bytes, so a
// block's bytes are 2-byte aligned and no more (ggml-cuda reads q8_0 so too: get_int_b2, two 16-bit
// halves per int). A lane issues all its steps' loads before its first FMA (predicated, not branched):
// in the one-row pass DG_Q8_UNROLL steps, 40 loads and 64 bytes of w in flight per lane, as many weights
// as gemv.cu's 8 × 16 bytes at about half the bytes; the 8-row pass DG_Q8_UNROLL_ROWS. x: two float4 per
// step where x is 16-byte aligned, else 8 scalar loads (any offset the host passes). W (warpSize) is read
// at run time, as in gemv.cu.
#include "dictum_gpu.h"
#include "gemv_common.cuh"

#define DG_Q8_UNROLL 8
// The 8-row pass (beams, prompts) keeps half as many steps in flight: 8 accumulators and 8 rows of x beside
// 40 pending loads spilled on gfx1100 (LLVM 15 holds it to 128 VGPRs); 8 rows reuse each load 8 times.
#define DG_Q8_UNROLL_ROWS 4
// A block in 16-bit words: the scale, then 16 words of two quants each (value 2m in the low byte).
#define DG_Q8_WORDS 17

// The 8 values of one step (scale word d16, quant words q[0..3]) times x[0..8) added to acc in value
// order; x from shared memory when XS (the normalised row), else global.
template <bool XS>
__device__ __forceinline__ float dg_q8_fma8(unsigned short d16, const unsigned short* q, const float* xp, bool xwide,
                                            float acc) {
    const float d = __half2float(__ushort_as_half(d16));
    float xv[8];
    if (xwide) {
        const float4 a = dg_ldx4<XS>(reinterpret_cast<const float4*>(xp));
        const float4 c = dg_ldx4<XS>(reinterpret_cast<const float4*>(xp) + 1);
        xv[0] = a.x; xv[1] = a.y; xv[2] = a.z; xv[3] = a.w;
        xv[4] = c.x; xv[5] = c.y; xv[6] = c.z; xv[7] = c.w;
    } else {
#pragma unroll
        for (int e = 0; e < 8; e++) {
            xv[e] = dg_ldx<XS>(xp + e);
        }
    }
#pragma unroll
    for (int m = 0; m < 4; m++) {
        const float lo = d * (float) (signed char) (q[m] & 0xff); // Dequant.java: scale * q, in f32
        const float hi = d * (float) (signed char) (q[m] >> 8);
        acc = fmaf(lo, xv[2 * m], acc);
        acc = fmaf(hi, xv[2 * m + 1], acc);
    }
    return acc;
}

// One pass over this warp's slice [lo, hi) (in steps of 8 values) of the row at wr against NR rows of
// x at most (nr of them live): the partial dot products, summed over the warp (every lane of the warp
// shuffles, live or not: live is per warp).
template <int NR, bool XS>
__device__ __forceinline__ void dg_q8_pass(const float* xr, const unsigned short* wr, int k, int lo, int hi, int lane,
                                           int W, bool live, bool xwide, int nr, float* acc) {
#pragma unroll
    for (int r = 0; r < NR; r++) {
        acc[r] = 0.0f;
    }
    constexpr int U = NR == 1 ? DG_Q8_UNROLL : DG_Q8_UNROLL_ROWS;
    if (live) {
        for (int base = lo; base < hi; base += U * W) {
            unsigned short d[U];
            unsigned short q[U][4];
#pragma unroll
            for (int u = 0; u < U; u++) { // every load first ...
                const int i = base + u * W + lane;
                const bool in = i < hi;
                const unsigned short* b = wr + (long long) (in ? i >> 2 : 0) * DG_Q8_WORDS;
                d[u] = in ? DG_LDG(b) : (unsigned short) 0;
#pragma unroll
                for (int m = 0; m < 4; m++) {
                    q[u][m] = in ? DG_LDG(b + 1 + (i & 3) * 4 + m) : (unsigned short) 0;
                }
            }
#pragma unroll
            for (int u = 0; u < U; u++) { // ... then the arithmetic
                const int i = base + u * W + lane;
                if (i < hi) {
#pragma unroll
                    for (int r = 0; r < NR; r++) {
                        if (r < nr) {
                            acc[r] = dg_q8_fma8<XS>(d[u], q[u], xr + (long long) r * k + 8 * i, xwide, acc[r]);
                        }
                    }
                }
            }
        }
    }
#pragma unroll
    for (int r = 0; r < NR; r++) {
        if (r < nr) { // nr is the same for the whole block
            acc[r] = dg_warp_sum(acc[r]);
        }
    }
}

// out[r][j] = epilogue((LN?(x))[r] · w[j] + bias[j]) for r < rows, j < n. XS: one row (rows == 1; the
// 8-row pass is not compiled in), normalised by every block into xs (the block's dynamic shared memory:
// k floats, then k half2 of gain and bias) as gemv.cu's one-row fused entries do; else x is read from
// global memory and xs, gain and lnBias are unused. O: how out stores its values (float, or __half for an
// f16 K/V cache). No one-row twin of gemv1_f16: on sm_90 the one-row body alone took 108 registers against
// gemv_q8_0's 128, the same 4 blocks of 128 per SM (registers are given per warp in 256s).
template <bool XS, typename O>
__device__ __forceinline__ void dg_gemv_q8(const float* x, const __half* gain, const __half* lnBias, float* xs,
                                           const unsigned char* w, const __half* bias, O* out, int rows, int n, int k,
                                           int epilogue) {
    __shared__ float part[DG_GEMV_MAX_WARPS][DG_GEMV_ROWS];
    __shared__ float redMean[32];
    __shared__ float redVar[32];
    const int W = warpSize;
    const int lane = threadIdx.x % W;
    const int warp = threadIdx.x / W;
    const int warps = blockDim.x / W;
    const int split = dg_gemv_split(k, warps, W);
    const int cols = warps / split; // columns per block
    const int slice = warp % split;
    const int units = k / 8; // steps of 8 values (k % 32 == 0)
    const int per = (units + split - 1) / split;
    const int lo = min(units, slice * per);
    const int hi = min(units, lo + per);
    const long long rowWords = (long long) (k / 32) * DG_Q8_WORDS; // blocks are 2-byte aligned: 16-bit words
    if (XS) {
        dg_ln_row(x, gain, lnBias, xs, reinterpret_cast<__half2*>(xs + k), k, redMean, redVar);
    }
    const float* xb = XS ? xs : x;
    const bool xwide = ((unsigned long long) xb & 15ull) == 0; // k % 8 == 0 always

    for (int j0 = blockIdx.x * cols; j0 < n; j0 += gridDim.x * cols) { // uniform over the block
        const int j = j0 + warp / split;
        const bool live = warp < cols * split && j < n;
        const unsigned short* wr = reinterpret_cast<const unsigned short*>(w) + (live ? j : 0) * rowWords;
        for (int r0 = 0; r0 < rows; r0 += DG_GEMV_ROWS) {
            const int nr = min(DG_GEMV_ROWS, rows - r0);
            const float* xr = xb + (long long) r0 * k;
            float acc[DG_GEMV_ROWS];
            if (XS || nr == 1) {
                dg_q8_pass<1, XS>(xr, wr, k, lo, hi, lane, W, live, xwide, nr, acc);
            } else {
                dg_q8_pass<DG_GEMV_ROWS, XS>(xr, wr, k, lo, hi, lane, W, live, xwide, nr, acc);
            }
            dg_gemv_sum_slices(part, acc, nr, warp, lane, slice, split);
            if (live && slice == 0 && lane == 0) {
                dg_gemv_store(out, bias, acc, nr, r0, n, j, epilogue);
            }
        }
    }
}

// gemv_f16's contract (any rows: beams, a draft's logits in passes of 8 rows) with w as q8_0 blocks.
extern "C" __global__ void __launch_bounds__(256) gemv_q8_0(const float* x, const unsigned char* w,
                                                             const __half* bias, float* out, int rows, int n, int k,
                                                             int epilogue) {
    dg_gemv_q8<false, float>(x, nullptr, nullptr, nullptr, w, bias, out, rows, n, k, epilogue);
}

// gemv3_f16's contract with q8_0 weights: up to three projections of the same x (blockIdx.y picks one).
extern "C" __global__ void __launch_bounds__(256) gemv3_q8_0(const float* x, const unsigned char* w0,
                                                              const __half* b0, float* o0, const unsigned char* w1,
                                                              const __half* b1, float* o1, const unsigned char* w2,
                                                              const __half* b2, float* o2, int rows, int n, int k) {
    const int p = blockIdx.y;
    dg_gemv_q8<false, float>(x, nullptr, nullptr, nullptr, p == 0 ? w0 : p == 1 ? w1 : w2,
                             p == 0 ? b0 : p == 1 ? b1 : b2, p == 0 ? o0 : p == 1 ? o1 : o2, rows, n, k, 0);
}

// gemv1_ln_f16's contract with q8_0 weights: one row, the LayerNorm in every block's prologue.
// Dynamic shared memory: 8·k bytes.
extern "C" __global__ void __launch_bounds__(256) gemv1_ln_q8_0(const float* x, const __half* gain,
                                                                 const __half* lnBias, const unsigned char* w,
                                                                 const __half* bias, float* out, int n, int k,
                                                                 int epilogue) {
    extern __shared__ float sm[];
    dg_gemv_q8<true, float>(x, gain, lnBias, sm, w, bias, out, 1, n, k, epilogue);
}

// gemv3_1_f16's contract with q8_0 weights: LayerNorm, Q/K/V (blockIdx.y), K and V into row step[1] of
// the f32 caches when step != null. Dynamic shared memory: 8·k bytes.
extern "C" __global__ void __launch_bounds__(256) gemv3_1_q8_0(const float* x, const __half* gain,
                                                                const __half* lnBias, const unsigned char* w0,
                                                                const __half* b0, float* o0, const unsigned char* w1,
                                                                const __half* b1, float* o1, const unsigned char* w2,
                                                                const __half* b2, float* o2, int n, int k,
                                                                const int* step, long long rowStride) {
    extern __shared__ float sm[];
    const int p = blockIdx.y;
    float* o = p == 0 ? o0 : p == 1 ? o1 : o2;
    if (step != nullptr && p > 0) {
        o += (long long) step[1] * rowStride;
    }
    dg_gemv_q8<true, float>(x, gain, lnBias, sm, p == 0 ? w0 : p == 1 ? w1 : w2, p == 0 ? b0 : p == 1 ? b1 : b2, o,
                            1, n, k, 0);
}

// gemv3_1_f16kv's contract with q8_0 weights: the key and value rows rounded into the f16 caches.
extern "C" __global__ void __launch_bounds__(256) gemv3_1_q8_0kv(const float* x, const __half* gain,
                                                                  const __half* lnBias, const unsigned char* w0,
                                                                  const __half* b0, float* o0,
                                                                  const unsigned char* w1, const __half* b1,
                                                                  __half* o1, const unsigned char* w2,
                                                                  const __half* b2, __half* o2, int n, int k,
                                                                  const int* step, long long rowStride) {
    extern __shared__ float sm[];
    const int p = blockIdx.y;
    if (p == 0) {
        dg_gemv_q8<true, float>(x, gain, lnBias, sm, w0, b0, o0, 1, n, k, 0);
        return;
    }
    __half* o = (p == 1 ? o1 : o2) + (step != nullptr ? (long long) step[1] * rowStride : 0);
    dg_gemv_q8<true, __half>(x, gain, lnBias, sm, p == 1 ? w1 : w2, p == 1 ? b1 : b2, o, 1, n, k, 0);
}
