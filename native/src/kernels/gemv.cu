// out = epilogue(x · wᵀ + bias) for few rows (one decoded token per beam). Memory-bound on w: the
// point is to keep enough bytes of w in flight that the GPU's copy rate, not the load latency, sets
// the time (Little's law: ~3 TB/s × ~0.6 µs ≈ 2 MB in flight over the chip, ≥ 16 KB per SM).
//
// Work split: `split` warps of a block share one output column j, each streaming a contiguous slice
// of row j of w (split > 1 only for long rows, k = 4·d of the MLP's down projection, so that a
// 1280 × 5120 GEMV has 4× as many warps in flight as columns); a block holds blockDim / W / split
// columns. Every lane issues all DG_GEMV_UNROLL of its loads of w before the first FMA (the loads
// are predicated, not branched, so the compiler can hoist them), then multiplies them against up to
// DG_GEMV_ROWS rows of x. The slices' partial sums meet in shared memory and the slice-0 warp adds
// them in slice order: no atomics, the same bits on every run. Grid-stride over column groups.
//
// Loads: 16 bytes of w (8 halves) and 2 × float4 of x per lane when k % 8 == 0 and both are 16-byte
// aligned; half2 / float2 when k is even and they are 4- / 8-byte aligned; scalar otherwise (any k,
// any offset the host passes). W (warpSize) is read at run time: 32 on NVIDIA and RDNA wave32, 64
// on GCN/CDNA; nothing below assumes either.
#include "dictum_gpu.h"
#include "gemv_common.cuh"

__device__ __forceinline__ void dg_fma8(const uint4 raw, const float4 a, const float4 c, float& acc) {
    const __half2* h = reinterpret_cast<const __half2*>(&raw);
    const float2 w0 = __half22float2(h[0]);
    const float2 w1 = __half22float2(h[1]);
    const float2 w2 = __half22float2(h[2]);
    const float2 w3 = __half22float2(h[3]);
    float t = acc;
    t = fmaf(w0.x, a.x, t);
    t = fmaf(w0.y, a.y, t);
    t = fmaf(w1.x, a.z, t);
    t = fmaf(w1.y, a.w, t);
    t = fmaf(w2.x, c.x, t);
    t = fmaf(w2.y, c.y, t);
    t = fmaf(w3.x, c.z, t);
    acc = fmaf(w3.y, c.w, t);
}

// One pass over this warp's slice of row j of w against NR rows of x at most (nr of them live):
// the partial dot products, summed over the warp. NR is 1 (a decoded token: one accumulator, a
// lean body with room for more warps per SM) or DG_GEMV_ROWS (beams, prompts).
template <int NR>
__device__ __forceinline__ void dg_gemv_pass(const float* xr, const __half* wr, int k, int lo, int hi, int lane,
                                             int W, bool live, bool wide, bool paired, int nr, float* acc) {
#pragma unroll
    for (int r = 0; r < NR; r++) {
        acc[r] = 0.0f;
    }
    if (live && wide) {
        const uint4* w8 = reinterpret_cast<const uint4*>(wr);
        for (int base = lo; base < hi; base += DG_GEMV_UNROLL * W) {
            uint4 wv[DG_GEMV_UNROLL];
#pragma unroll
            for (int u = 0; u < DG_GEMV_UNROLL; u++) { // every load first ...
                const int i = base + u * W + lane;
                wv[u] = i < hi ? DG_LDG(w8 + i) : make_uint4(0u, 0u, 0u, 0u);
            }
#pragma unroll
            for (int u = 0; u < DG_GEMV_UNROLL; u++) { // ... then the arithmetic
                const int i = base + u * W + lane;
                if (i < hi) {
#pragma unroll
                    for (int r = 0; r < NR; r++) {
                        if (r < nr) {
                            const float4* x4 = reinterpret_cast<const float4*>(xr + (long long) r * k) + 2 * i;
                            dg_fma8(wv[u], DG_LDG(x4), DG_LDG(x4 + 1), acc[r]);
                        }
                    }
                }
            }
        }
    } else if (live && paired) {
        const __half2* w2 = reinterpret_cast<const __half2*>(wr);
        for (int base = lo; base < hi; base += DG_GEMV_UNROLL * W) {
            __half2 wv[DG_GEMV_UNROLL];
#pragma unroll
            for (int u = 0; u < DG_GEMV_UNROLL; u++) {
                const int i = base + u * W + lane;
                wv[u] = i < hi ? w2[i] : __floats2half2_rn(0.0f, 0.0f);
            }
#pragma unroll
            for (int u = 0; u < DG_GEMV_UNROLL; u++) {
                const int i = base + u * W + lane;
                if (i < hi) {
                    const float2 wf = __half22float2(wv[u]);
#pragma unroll
                    for (int r = 0; r < NR; r++) {
                        if (r < nr) {
                            const float2 xv = reinterpret_cast<const float2*>(xr + (long long) r * k)[i];
                            acc[r] = fmaf(wf.x, xv.x, fmaf(wf.y, xv.y, acc[r]));
                        }
                    }
                }
            }
        }
    } else if (live) {
        for (int i = lo + lane; i < hi; i += W) {
            const float wf = __half2float(wr[i]);
#pragma unroll
            for (int r = 0; r < NR; r++) {
                if (r < nr) {
                    acc[r] = fmaf(wf, xr[(long long) r * k + i], acc[r]);
                }
            }
        }
    }
#pragma unroll
    for (int r = 0; r < NR; r++) {
        if (r < nr) { // nr is the same for the whole block: every lane of every warp shuffles
            acc[r] = dg_warp_sum(acc[r]);
        }
    }
}

__device__ __forceinline__ void dg_gemv(const float* x, const __half* w, const __half* bias, float* out, int rows,
                                        int n, int k, int epilogue) {
    __shared__ float part[DG_GEMV_MAX_WARPS][DG_GEMV_ROWS];
    const int W = warpSize;
    const int lane = threadIdx.x % W;
    const int warp = threadIdx.x / W;
    const int warps = blockDim.x / W;
    const bool wide = (k % 8 == 0) && (((unsigned long long) w & 15ull) == 0)
            && (((unsigned long long) x & 15ull) == 0);
    const bool paired = !wide && (k % 2 == 0) && (((unsigned long long) w & 3ull) == 0)
            && (((unsigned long long) x & 7ull) == 0);
    const int split = dg_gemv_split(k, warps, W);
    const int cols = warps / split; // columns per block
    const int slice = warp % split;
    // This warp's share of the row, in units of the load width (8, 2 or 1 halves).
    const int units = wide ? k / 8 : paired ? k / 2 : k;
    const int per = (units + split - 1) / split;
    const int lo = min(units, slice * per);
    const int hi = min(units, lo + per);

    for (int j0 = blockIdx.x * cols; j0 < n; j0 += gridDim.x * cols) { // uniform over the block
        const int j = j0 + warp / split;
        const bool live = warp < cols * split && j < n;
        const __half* wr = w + (long long) (live ? j : 0) * k;
        for (int r0 = 0; r0 < rows; r0 += DG_GEMV_ROWS) {
            const int nr = min(DG_GEMV_ROWS, rows - r0);
            const float* xr = x + (long long) r0 * k;
            float acc[DG_GEMV_ROWS];
            if (nr == 1) {
                dg_gemv_pass<1>(xr, wr, k, lo, hi, lane, W, live, wide, paired, nr, acc);
            } else {
                dg_gemv_pass<DG_GEMV_ROWS>(xr, wr, k, lo, hi, lane, W, live, wide, paired, nr, acc);
            }
            dg_gemv_sum_slices(part, acc, nr, warp, lane, slice, split);
            if (live && slice == 0 && lane == 0) {
                dg_gemv_store(out, bias, acc, nr, r0, n, j, epilogue);
            }
        }
    }
}

extern "C" __global__ void __launch_bounds__(256) gemv_f16(const float* x, const __half* w, const __half* bias,
                                                            float* out, int rows, int n, int k, int epilogue) {
    dg_gemv(x, w, bias, out, rows, n, k, epilogue);
}

// Up to three projections of the same x with the same n and k (a decoded token's query, key and
// value) in one launch: blockIdx.y picks the projection (grid (gemv_f16's grid, count)), each as
// gemv_f16 with epilogue 0. One launch instead of three: the decoder step's kernels are short and
// their fixed cost, not their bytes, sets the step's time.
extern "C" __global__ void __launch_bounds__(256) gemv3_f16(const float* x, const __half* w0, const __half* b0,
                                                             float* o0, const __half* w1, const __half* b1,
                                                             float* o1, const __half* w2, const __half* b2,
                                                             float* o2, int rows, int n, int k) {
    const int p = blockIdx.y;
    dg_gemv(x, p == 0 ? w0 : p == 1 ? w1 : w2, p == 0 ? b0 : p == 1 ? b1 : b2, p == 0 ? o0 : p == 1 ? o1 : o2, rows,
            n, k, 0);
}

// ---------------------------------------------------------------------------------------------
// One row of x (the greedy decoder step), fused: the step's kernels are short, so their count, not
// their bytes, sets its time. gemv1_f16, gemv1_ln_f16 and gemv3_1_f16 are gemv_f16 / gemv3_f16 for
// rows == 1 (compiled without the 8-row pass: fewer registers, more warps per SM) with
//   - (gemv1_ln_f16, gemv3_1_f16) a LayerNorm of x in the prologue: every block normalises the row into
//     its dynamic shared memory (k floats, + k half2 of gain and bias; dg_ln_row, gemv_common.cuh) exactly as
//     layer_norm_f32 does (mean, then the centred
//     variance, in the same order at the same block size in every block, so every block holds the
//     same bits), and the pass reads x from there. The lane's first 8 loads of w are issued before
//     the prologue, so the row's statistics are computed while w is on its way;
//   - (gemv3_1_f16) an optional K/V-cache epilogue (step != null): projections 1 and 2 (key, value)
//     are written to row step[1] of their outputs (row stride rowStride), the position read from
//     device memory when the kernel runs, as kv_append_f32 does.

// dg_gemv_pass<1> for one row with the first batch of 16-byte loads already in `pre` (wide only),
// x read from shared memory when XS. Returns the warp's sum.
template <bool XS>
__device__ __forceinline__ float dg_gemv1_pass(const float* xr, const __half* wr, int lo, int hi, int lane, int W,
                                               bool live, bool wide, bool paired, const uint4* pre) {
    float acc = 0.0f;
    if (live && wide) {
        const uint4* w8 = reinterpret_cast<const uint4*>(wr);
        const float4* x4 = reinterpret_cast<const float4*>(xr);
        uint4 wv[DG_GEMV_UNROLL];
#pragma unroll
        for (int u = 0; u < DG_GEMV_UNROLL; u++) {
            wv[u] = pre[u];
        }
        for (int base = lo; base < hi;) {
#pragma unroll
            for (int u = 0; u < DG_GEMV_UNROLL; u++) {
                const int i = base + u * W + lane;
                if (i < hi) {
                    dg_fma8(wv[u], dg_ldx4<XS>(x4 + 2 * i), dg_ldx4<XS>(x4 + 2 * i + 1), acc);
                }
            }
            base += DG_GEMV_UNROLL * W;
#pragma unroll
            for (int u = 0; u < DG_GEMV_UNROLL; u++) { // the next batch, every load before its FMAs
                const int i = base + u * W + lane;
                wv[u] = i < hi ? DG_LDG(w8 + i) : make_uint4(0u, 0u, 0u, 0u);
            }
        }
    } else if (live && paired) {
        const __half2* w2 = reinterpret_cast<const __half2*>(wr);
        const float2* x2 = reinterpret_cast<const float2*>(xr);
        for (int i = lo + lane; i < hi; i += W) {
            const float2 wf = __half22float2(w2[i]);
            const float2 xv = XS ? x2[i] : DG_LDG(x2 + i);
            acc = fmaf(wf.x, xv.x, fmaf(wf.y, xv.y, acc));
        }
    } else if (live) {
        for (int i = lo + lane; i < hi; i += W) {
            acc = fmaf(__half2float(wr[i]), dg_ldx<XS>(xr + i), acc);
        }
    }
    return dg_warp_sum(acc); // every lane of every warp: live is per warp, the shuffle per warp
}

// out[j] = epilogue(LN?(x) · w[j] + bias[j]) for one row; xs: the block's k floats of dynamic shared
// memory (XS: the layer norm in the prologue; else x is read from global memory and xs, gain and
// lnBias are unused). Grid-stride over column groups as dg_gemv.
// O: how out stores its values (float, or __half for an f16 K/V cache: gemv3_1_f16kv's epilogue 0).
template <bool XS, typename O = float>
__device__ __forceinline__ void dg_gemv1(const float* x, const __half* gain, const __half* lnBias, float* xs,
                                         const __half* w, const __half* bias, O* out, int n, int k,
                                         int epilogue) {
    __shared__ float part[DG_GEMV_MAX_WARPS][1];
    __shared__ float redMean[32];
    __shared__ float redVar[32];
    const int W = warpSize;
    const int lane = threadIdx.x % W;
    const int warp = threadIdx.x / W;
    const int warps = blockDim.x / W;
    const float* xr = XS ? xs : x;
    const bool wide = (k % 8 == 0) && (((unsigned long long) w & 15ull) == 0)
            && (((unsigned long long) xr & 15ull) == 0);
    const bool paired = !wide && (k % 2 == 0) && (((unsigned long long) w & 3ull) == 0)
            && (((unsigned long long) xr & 7ull) == 0);
    const int split = dg_gemv_split(k, warps, W);
    const int cols = warps / split;
    const int slice = warp % split;
    const int units = wide ? k / 8 : paired ? k / 2 : k;
    const int per = (units + split - 1) / split;
    const int lo = min(units, slice * per);
    const int hi = min(units, lo + per);

    // This lane's first batch of w for the block's first column group, issued before the prologue.
    uint4 pre[DG_GEMV_UNROLL];
    {
        const int j = blockIdx.x * cols + warp / split;
        const bool live = wide && warp < cols * split && j < n;
        const uint4* w8 = reinterpret_cast<const uint4*>(w + (long long) (live ? j : 0) * k);
#pragma unroll
        for (int u = 0; u < DG_GEMV_UNROLL; u++) {
            const int i = lo + u * W + lane;
            pre[u] = live && i < hi ? DG_LDG(w8 + i) : make_uint4(0u, 0u, 0u, 0u);
        }
    }
    if (XS) {
        dg_ln_row(x, gain, lnBias, xs, reinterpret_cast<__half2*>(xs + k), k, redMean, redVar);
    }
    bool first = true;
    for (int j0 = blockIdx.x * cols; j0 < n; j0 += gridDim.x * cols) { // uniform over the block
        const int j = j0 + warp / split;
        const bool live = warp < cols * split && j < n;
        const __half* wr = w + (long long) (live ? j : 0) * k;
        if (!first && live && wide) { // a later column group (a capped grid): its first batch now
            const uint4* w8 = reinterpret_cast<const uint4*>(wr);
#pragma unroll
            for (int u = 0; u < DG_GEMV_UNROLL; u++) {
                const int i = lo + u * W + lane;
                pre[u] = i < hi ? DG_LDG(w8 + i) : make_uint4(0u, 0u, 0u, 0u);
            }
        }
        first = false;
        float acc = dg_gemv1_pass<XS>(xr, wr, lo, hi, lane, W, live, wide, paired, pre);
        dg_gemv_sum_slices(part, &acc, 1, warp, lane, slice, split);
        if (live && slice == 0 && lane == 0) {
            dg_gemv_store(out, bias, &acc, 1, 0, n, j, epilogue);
        }
    }
}

// rows == 1: out = epilogue(x · wᵀ + bias), as gemv_f16 with one row (the same bits), in a body
// of its own: one pass shape, fewer registers (more warps per SM: the logits' 51866 columns).
extern "C" __global__ void __launch_bounds__(256) gemv1_f16(const float* x, const __half* w, const __half* bias,
                                                             float* out, int n, int k, int epilogue) {
    dg_gemv1<false>(x, nullptr, nullptr, nullptr, w, bias, out, n, k, epilogue);
}

// rows == 1: out = epilogue(LayerNorm(x; gain, lnBias) · wᵀ + bias). Dynamic shared memory: 8·k bytes
// (the row, then its gain and bias as half2).
extern "C" __global__ void __launch_bounds__(256) gemv1_ln_f16(const float* x, const __half* gain,
                                                                const __half* lnBias, const __half* w,
                                                                const __half* bias, float* out, int n, int k,
                                                                int epilogue) {
    extern __shared__ float sm[];
    dg_gemv1<true>(x, gain, lnBias, sm, w, bias, out, n, k, epilogue);
}

// rows == 1: three projections of LayerNorm(x; gain, lnBias) as gemv3_f16 (the decoder step's query,
// key and value); with step != null, projections 1 and 2 (key, value) land in row step[1] of o1 / o2
// (row stride rowStride): the step's cache append. Dynamic shared memory: 8·k bytes.
extern "C" __global__ void __launch_bounds__(256) gemv3_1_f16(const float* x, const __half* gain,
                                                               const __half* lnBias, const __half* w0,
                                                               const __half* b0, float* o0, const __half* w1,
                                                               const __half* b1, float* o1, const __half* w2,
                                                               const __half* b2, float* o2, int n, int k,
                                                               const int* step, long long rowStride) {
    extern __shared__ float sm[];
    const int p = blockIdx.y;
    float* o = p == 0 ? o0 : p == 1 ? o1 : o2;
    if (step != nullptr && p > 0) {
        o += (long long) step[1] * rowStride;
    }
    dg_gemv1<true>(x, gain, lnBias, sm, p == 0 ? w0 : p == 1 ? w1 : w2, p == 0 ? b0 : p == 1 ? b1 : b2, o, n, k, 0);
}

// gemv3_1_f16 with the key and value rows rounded into f16 caches (the GPU's self K/V, issue 22): the
// query (f32) and the K/V rows (f16) are two instances of the pass, picked per block by blockIdx.y.
extern "C" __global__ void __launch_bounds__(256) gemv3_1_f16kv(const float* x, const __half* gain,
                                                                 const __half* lnBias, const __half* w0,
                                                                 const __half* b0, float* o0, const __half* w1,
                                                                 const __half* b1, __half* o1, const __half* w2,
                                                                 const __half* b2, __half* o2, int n, int k,
                                                                 const int* step, long long rowStride) {
    extern __shared__ float sm[];
    const int p = blockIdx.y;
    if (p == 0) {
        dg_gemv1<true>(x, gain, lnBias, sm, w0, b0, o0, n, k, 0);
        return;
    }
    __half* o = (p == 1 ? o1 : o2) + (step != nullptr ? (long long) step[1] * rowStride : 0);
    dg_gemv1<true>(x, gain, lnBias, sm, p == 1 ? w1 : w2, p == 1 ? b1 : b2, o, n, k, 0);
}

// rows == 1 with many columns (the logits: 51866): a persistent grid of a few blocks per SM, each warp
// walking its columns with a stride of every warp of the grid, the next column's 16-byte loads issued
// before the current column's FMAs and reduction, so every warp keeps two rows of w in flight and no
// block ends and starts between columns (12967 short blocks of gemv1_f16 spent their time ramping).
// The wide path only (k % 8 == 0, w and x 16-byte aligned, k ≤ 8 · 8 · W halves: one batch of loads
// per lane); anything else runs gemv1_f16's body (correct for any grid).
extern "C" __global__ void __launch_bounds__(256) gemv1_pipe_f16(const float* x, const __half* w, const __half* bias,
                                                                  float* out, int n, int k, int epilogue) {
    const int W = warpSize;
    const int units = k / 8;
    const bool fits = k % 8 == 0 && units <= DG_GEMV_UNROLL * W && (((unsigned long long) w & 15ull) == 0)
            && (((unsigned long long) x & 15ull) == 0);
    if (!fits) { // uniform over the grid
        dg_gemv1<false>(x, nullptr, nullptr, nullptr, w, bias, out, n, k, epilogue);
        return;
    }
    const int lane = threadIdx.x % W;
    const int warps = gridDim.x * (blockDim.x / W);
    const float4* x4 = reinterpret_cast<const float4*>(x);
    int j = blockIdx.x * (blockDim.x / W) + threadIdx.x / W;
    uint4 cur[DG_GEMV_UNROLL];
    uint4 nxt[DG_GEMV_UNROLL];
#pragma unroll
    for (int u = 0; u < DG_GEMV_UNROLL; u++) {
        const int i = u * W + lane;
        cur[u] = j < n && i < units ? DG_LDG(reinterpret_cast<const uint4*>(w + (long long) j * k) + i)
                                    : make_uint4(0u, 0u, 0u, 0u);
    }
    for (; j < n; j += warps) { // per warp: no block barrier anywhere below
        const int jn = j + warps;
#pragma unroll
        for (int u = 0; u < DG_GEMV_UNROLL; u++) {
            const int i = u * W + lane;
            nxt[u] = jn < n && i < units ? DG_LDG(reinterpret_cast<const uint4*>(w + (long long) jn * k) + i)
                                         : make_uint4(0u, 0u, 0u, 0u);
        }
        float acc = 0.0f;
#pragma unroll
        for (int u = 0; u < DG_GEMV_UNROLL; u++) {
            const int i = u * W + lane;
            if (i < units) {
                dg_fma8(cur[u], DG_LDG(x4 + 2 * i), DG_LDG(x4 + 2 * i + 1), acc);
            }
        }
        acc = dg_warp_sum(acc);
        if (lane == 0) {
            const float v = acc + (bias ? __half2float(bias[j]) : 0.0f);
            out[j] = epilogue == 1 ? dg_gelu(v) : epilogue == 2 ? out[j] + v : v;
        }
#pragma unroll
        for (int u = 0; u < DG_GEMV_UNROLL; u++) {
            cur[u] = nxt[u];
        }
    }
}
