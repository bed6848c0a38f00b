// out = epilogue(x · wᵀ + bias) for few rows (one decoded token per beam): memory-bound on w, so
// each warp takes one output column j and streams row j of w exactly once per 8 rows of x, and
// reduces its lanes' partial sums with shuffles. Grid-stride over columns. The widest loads the
// addresses allow: 16 bytes of w (8 halves) and 2 x float4 of x per lane when k % 8 == 0 and both
// are 16-byte aligned; half2 / float2 when k is even and they are 4- / 8-byte aligned; scalar
// otherwise (any k, any offset the host passes).
#include "dictum_gpu.h"

#define DG_GEMV_ROWS 8

extern "C" __global__ void __launch_bounds__(1024) gemv_f16(const float* x, const __half* w, const __half* bias,
                                                            float* out, int rows, int n, int k, int epilogue) {
    const int lane = threadIdx.x % warpSize;
    const int warpsPerBlock = blockDim.x / warpSize;
    const bool paired = (k % 2 == 0) && (((unsigned long long) w & 3ull) == 0)
            && (((unsigned long long) x & 7ull) == 0);
    const int pairs = k / 2;
    const bool wide = (k % 8 == 0) && (((unsigned long long) w & 15ull) == 0)
            && (((unsigned long long) x & 15ull) == 0);
    const int octets = k / 8;
    for (int j = blockIdx.x * warpsPerBlock + threadIdx.x / warpSize; j < n; j += gridDim.x * warpsPerBlock) {
        const __half* wr = w + (long long) j * k;
        const float b = bias ? __half2float(bias[j]) : 0.0f;
        for (int r0 = 0; r0 < rows; r0 += DG_GEMV_ROWS) {
            const int nr = min(DG_GEMV_ROWS, rows - r0);
            const float* xr = x + (long long) r0 * k;
            float acc[DG_GEMV_ROWS];
#pragma unroll
            for (int r = 0; r < DG_GEMV_ROWS; r++) {
                acc[r] = 0.0f;
            }
            if (wide) {
                const uint4* w8 = reinterpret_cast<const uint4*>(wr);
                for (int i = lane; i < octets; i += warpSize) {
                    const uint4 raw = w8[i];
                    const unsigned int words[4] = {raw.x, raw.y, raw.z, raw.w};
                    float wf[8];
#pragma unroll
                    for (int h = 0; h < 4; h++) {
                        wf[2 * h] = __half2float(__ushort_as_half((unsigned short) (words[h] & 0xffffu)));
                        wf[2 * h + 1] = __half2float(__ushort_as_half((unsigned short) (words[h] >> 16)));
                    }
#pragma unroll
                    for (int r = 0; r < DG_GEMV_ROWS; r++) {
                        if (r < nr) {
                            const float4* x4 = reinterpret_cast<const float4*>(xr + (long long) r * k) + 2 * i;
                            const float4 a = x4[0];
                            const float4 c = x4[1];
                            float t = acc[r];
                            t = fmaf(wf[0], a.x, t);
                            t = fmaf(wf[1], a.y, t);
                            t = fmaf(wf[2], a.z, t);
                            t = fmaf(wf[3], a.w, t);
                            t = fmaf(wf[4], c.x, t);
                            t = fmaf(wf[5], c.y, t);
                            t = fmaf(wf[6], c.z, t);
                            acc[r] = fmaf(wf[7], c.w, t);
                        }
                    }
                }
            } else if (paired) {
                const __half2* w2 = reinterpret_cast<const __half2*>(wr);
                for (int i = lane; i < pairs; i += warpSize) {
                    const float2 wf = __half22float2(w2[i]);
#pragma unroll
                    for (int r = 0; r < DG_GEMV_ROWS; r++) {
                        if (r < nr) {
                            const float2 xv = reinterpret_cast<const float2*>(xr + (long long) r * k)[i];
                            acc[r] = fmaf(wf.x, xv.x, fmaf(wf.y, xv.y, acc[r]));
                        }
                    }
                }
            } else {
                for (int i = lane; i < k; i += warpSize) {
                    const float wf = __half2float(wr[i]);
#pragma unroll
                    for (int r = 0; r < DG_GEMV_ROWS; r++) {
                        if (r < nr) {
                            acc[r] = fmaf(wf, xr[(long long) r * k + i], acc[r]);
                        }
                    }
                }
            }
#pragma unroll
            for (int r = 0; r < DG_GEMV_ROWS; r++) {
                acc[r] = dg_warp_sum(acc[r]); // every lane takes part: the loop above is warp-uniform
            }
            if (lane == 0) {
#pragma unroll
                for (int r = 0; r < DG_GEMV_ROWS; r++) {
                    if (r < nr) {
                        const float v = acc[r] + b;
                        float* o = out + (long long) (r0 + r) * n + j;
                        if (epilogue == 1) {
                            *o = dg_gelu(v);
                        } else if (epilogue == 2) {
                            *o += v;
                        } else {
                            *o = v;
                        }
                    }
                }
            }
        }
    }
}
