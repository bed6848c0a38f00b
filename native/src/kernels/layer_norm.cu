// LayerNorm over each row (eps 1e-5), as CpuLayerNorm: mean first, then the centred variance
// (two passes over the values, no E[x^2] - E[x]^2 cancellation), out = fma((x - mean) * inv, gain, bias).
//
// One warp (wave) per row, blockDim.x / warpSize rows per block: the row is read from memory once,
// into registers (DG_LN_PER_LANE floats a lane, so up to 48 * warpSize columns), both sums are warp
// shuffles, no barrier and no shared memory. At the encoder's rows (1500 x 1280) that is the copy
// rate: every load of a row (x, gain, bias) is issued before any is used, and the grid holds all
// rows at once. A wider row (never a Whisper shape) takes the block-per-row body below, chosen by a
// branch that is uniform over the launch (it depends on cols and warpSize only).
#include "block_reduce.cuh"

// Floats of a row one lane holds in registers, each with its gain/bias pair in one more register:
// 1536 columns at warp 32 (Whisper's widest row is 1280). 48 keeps the kernel at 128 registers on
// sm_80..sm_90 (16 warps an SM: 1500 rows resident at once on an H100) and 158 VGPRs on gfx1010
// (6 waves a SIMD); 64 took 174 registers (8 warps an SM).
#define DG_LN_PER_LANE 48
// The launch bound: at most 255 registers a thread on NVIDIA, so the row in registers never spills.
#define DG_LN_MAX_BLOCK 256

// One row by one warp of WS lanes (WS == warpSize, a template argument so that every chunk's offset
// is an immediate and only one address per array stays live). VW = 4: float4 loads and stores, gain
// and bias 4 halves at a time, all issued with x's (cols % 4 == 0, x/out 16-byte and gain/bias
// 8-byte aligned); VW = 1: any cols and alignment, gain and bias read at the end. Lane l holds the
// chunks at column (i * WS + l) * VW, i < DG_LN_PER_LANE / VW (coalesced; a chunk past cols is
// skipped). The loops are unrolled with constant indices only: the arrays stay in registers.
template <int VW, int WS>
__device__ __forceinline__ void dg_ln_warp_row(const float* xr, const unsigned short* gain, const unsigned short* bias,
                                               float* orow, int cols) {
    constexpr int N = DG_LN_PER_LANE / VW;
    const int lane = threadIdx.x % WS;
    const int rest = cols - lane * VW; // chunk i is in the row iff i * WS * VW < rest
    const float* xl = xr + lane * VW;
    float* ol = orow + lane * VW;
    const unsigned short* gl = gain + lane * VW;
    const unsigned short* bl = bias + lane * VW;
    float v[N][VW];
    unsigned gb[VW == 4 ? N : 1][VW]; // gain's f16 bits | bias's << 16 (VW = 4)
    // Every load first, none used yet: the row's latency is paid once.
#pragma unroll
    for (int i = 0; i < N; i++) {
        if (i * WS * VW < rest) {
            if constexpr (VW == 4) {
                const float4 q = *reinterpret_cast<const float4*>(xl + i * WS * 4);
                const uint2 g = *reinterpret_cast<const uint2*>(gl + i * WS * 4);
                const uint2 b = *reinterpret_cast<const uint2*>(bl + i * WS * 4);
                v[i][0] = q.x;
                v[i][1] = q.y;
                v[i][2] = q.z;
                v[i][3] = q.w;
                gb[i][0] = (g.x & 0xffffu) | (b.x << 16);
                gb[i][1] = (g.x >> 16) | (b.x & 0xffff0000u);
                gb[i][2] = (g.y & 0xffffu) | (b.y << 16);
                gb[i][3] = (g.y >> 16) | (b.y & 0xffff0000u);
            } else {
                v[i][0] = xl[i * WS];
            }
        }
    }
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < N; i++) {
        if (i * WS * VW < rest) {
#pragma unroll
            for (int e = 0; e < VW; e++) {
                s += v[i][e];
            }
        }
    }
    const float mean = dg_warp_sum(s) / cols;
    float q = 0.0f;
#pragma unroll
    for (int i = 0; i < N; i++) {
        if (i * WS * VW < rest) {
#pragma unroll
            for (int e = 0; e < VW; e++) {
                const float d = v[i][e] - mean;
                q = fmaf(d, d, q);
            }
        }
    }
    const float var = dg_warp_sum(q);
    // As the CPU: the variance in float, the square root and reciprocal in double.
    const float inv = (float) (1.0 / sqrt((double) (var / cols + 1e-5f)));
#pragma unroll
    for (int i = 0; i < N; i++) {
        if (i * WS * VW < rest) {
            if constexpr (VW == 4) {
                float o[4];
#pragma unroll
                for (int e = 0; e < 4; e++) {
                    o[e] = fmaf((v[i][e] - mean) * inv, __half2float(__ushort_as_half((unsigned short) (gb[i][e] & 0xffffu))),
                                __half2float(__ushort_as_half((unsigned short) (gb[i][e] >> 16))));
                }
                *reinterpret_cast<float4*>(ol + i * WS * 4) = make_float4(o[0], o[1], o[2], o[3]);
            } else {
                ol[i * WS] = fmaf((v[i][0] - mean) * inv, __half2float(__ushort_as_half(gl[i * WS])),
                                  __half2float(__ushort_as_half(bl[i * WS])));
            }
        }
    }
}

template <int WS>
__device__ __forceinline__ void dg_ln_warp_rows(const float* x, const __half* gain, const __half* bias, float* out,
                                                int rows, int cols) {
    const int rowsPerBlock = blockDim.x / WS;
    const unsigned short* g = reinterpret_cast<const unsigned short*>(gain);
    const unsigned short* b = reinterpret_cast<const unsigned short*>(bias);
    const bool vec = cols % 4 == 0
                     && ((reinterpret_cast<unsigned long long>(x) | reinterpret_cast<unsigned long long>(out)) & 15) == 0
                     && ((reinterpret_cast<unsigned long long>(gain) | reinterpret_cast<unsigned long long>(bias)) & 7) == 0;
    const int first = blockIdx.x * rowsPerBlock + (int) (threadIdx.x / WS);
    const int step = gridDim.x * rowsPerBlock;
    if (vec) {
        for (int row = first; row < rows; row += step) {
            dg_ln_warp_row<4, WS>(x + (long long) row * cols, g, b, out + (long long) row * cols, cols);
        }
    } else {
        for (int row = first; row < rows; row += step) {
            dg_ln_warp_row<1, WS>(x + (long long) row * cols, g, b, out + (long long) row * cols, cols);
        }
    }
}

// One row normalised by the whole block: the row read three times, with two block reductions (the
// kernel before issue 12; still the body for rows wider than the warps' registers, and kernel_bench's
// "before" at every width). redMean, redVar: 32 floats of shared memory each; the caller syncs before
// the next row reuses them.
__device__ __forceinline__ void dg_ln_block_row(const float* xr, const __half* gain, const __half* bias, float* orow,
                                                int cols, float* redMean, float* redVar) {
    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        s += xr[c];
    }
    const float mean = dg_block_sum(s, redMean) / cols;
    float v = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        const float d = xr[c] - mean;
        v = fmaf(d, d, v);
    }
    const float var = dg_block_sum(v, redVar);
    const float inv = (float) (1.0 / sqrt((double) (var / cols + 1e-5f)));
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        orow[c] = fmaf((xr[c] - mean) * inv, __half2float(gain[c]), __half2float(bias[c]));
    }
}

extern "C" __global__ void __launch_bounds__(DG_LN_MAX_BLOCK) layer_norm_f32(const float* x, const __half* gain,
                                                                             const __half* bias, float* out, int rows,
                                                                             int cols) {
    const int rowsPerBlock = blockDim.x / warpSize;
    if (cols > DG_LN_PER_LANE * warpSize) {
        // Wider than the registers hold: the whole block on each of its rows in turn, reading the
        // row three times with two block reductions (the kernel before issue 12's warp rows).
        __shared__ float redMean[32];
        __shared__ float redVar[32];
        for (int first = blockIdx.x * rowsPerBlock; first < rows; first += gridDim.x * rowsPerBlock) {
            for (int row = first; row < min(first + rowsPerBlock, rows); row++) {
                dg_ln_block_row(x + (long long) row * cols, gain, bias, out + (long long) row * cols, cols, redMean,
                                redVar);
                __syncthreads(); // redMean/redVar are reused by the next row
            }
        }
        return;
    }
#if defined(__CUDA_ARCH__)
    dg_ln_warp_rows<32>(x, gain, bias, out, rows, cols); // NVIDIA: warps of 32
#else
    if (warpSize == 64) { // a constant where hipcc knows the target's wave size
        dg_ln_warp_rows<64>(x, gain, bias, out, rows, cols);
    } else {
        dg_ln_warp_rows<32>(x, gain, bias, out, rows, cols);
    }
#endif
}
