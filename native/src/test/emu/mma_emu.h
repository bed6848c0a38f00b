// The NVIDIA tensor-core instructions attention.cu's NVIDIA bodies use (dg_mma.cuh, dg_mma_sm80.cuh),
// emulated on the CPU per warp over cuda_emu.h's threads, so that the fragment layouts and indexing
// of those bodies are checked against float64 without a GPU (attention_emu.cpp built with
// -DDG_EMU_MMA; attention.cu then skips the real headers, whose inline PTX g++ cannot take).
// Written from the PTX ISA's layouts ("Matrix Fragments for mma.m16n8k8 / m16n8k16", "ldmatrix"),
// g = lane / 4, t = lane % 4 — not from the kernels:
//   A: register i holds A[g + 8 (i % 2)][2t + 8 (i / 2) + {0, 1}]  (m16n8k8: i < 2; m16n8k16: i < 4)
//   B: register i holds B[2t + 8 i + {0, 1}][g]                    (k8: i < 1; k16: i < 2)
//   C: c[e] = C[g + 8 (e / 2)][2t + e % 2]
//   ldmatrix .x4: lane i names row i % 8 of matrix i / 8; register m of lane l holds row l / 4,
//   columns 2 (l % 4) + {0, 1} of matrix m, or with .trans rows 2 (l % 4) + {0, 1} of column l / 4.
// Products in double (the tensor cores' own rounding is not modelled: this checks layout, not
// rounding). Every collective is a post-then-read between two warp barriers, as cuda_emu.h's
// shuffles; a row address that is not 16-byte aligned aborts the run (ldmatrix requires it).
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

inline unsigned emu_fragBox[1024][6];
inline const void* emu_rowBox[1024];

inline void emu_warp_barrier() { emu_warpBarriers[threadIdx.x / warpSize]->arrive_and_wait(); }

inline float emu_f16(unsigned word, int half) {
    __half h = __ushort_as_half((unsigned short) (half ? word >> 16 : word & 0xffffu));
    return __half2float(h);
}

// D = A . B + C over the warp, K = 8 or 16.
template <int K>
inline void emu_mma(float* c, const unsigned* a, const unsigned* b) {
    const int t = threadIdx.x, lane = t % 32, base = t - lane;
    for (int i = 0; i < K / 4; i++) emu_fragBox[t][i] = a[i];
    for (int i = 0; i < K / 8; i++) emu_fragBox[t][4 + i] = b[i];
    emu_warp_barrier();
    float A[16][16], B[16][8];
    for (int l = 0; l < 32; l++) {
        const unsigned* f = emu_fragBox[base + l];
        const int g = l / 4, tt = l % 4;
        for (int i = 0; i < K / 4; i++) {
            A[g + 8 * (i % 2)][2 * tt + 8 * (i / 2)] = emu_f16(f[i], 0);
            A[g + 8 * (i % 2)][2 * tt + 8 * (i / 2) + 1] = emu_f16(f[i], 1);
        }
        for (int i = 0; i < K / 8; i++) {
            B[2 * tt + 8 * i][g] = emu_f16(f[4 + i], 0);
            B[2 * tt + 8 * i + 1][g] = emu_f16(f[4 + i], 1);
        }
    }
    const int g = lane / 4, tt = lane % 4;
    float d[4];
    for (int e = 0; e < 4; e++) {
        double acc = 0;
        for (int k = 0; k < K; k++) acc += (double) A[g + 8 * (e / 2)][k] * B[k][2 * tt + e % 2];
        d[e] = (float) (c[e] + acc);
    }
    emu_warp_barrier();
    for (int e = 0; e < 4; e++) c[e] = d[e];
}

inline void emu_ldmatrix_x4(unsigned* r, const __half* rowAddress, bool trans) {
    const int t = threadIdx.x, lane = t % 32, base = t - lane;
    if ((reinterpret_cast<uintptr_t>(rowAddress) & 15) != 0) {
        std::fprintf(stderr, "ldmatrix: lane %d row address %p is not 16-byte aligned\n", lane, (const void*) rowAddress);
        std::abort();
    }
    emu_rowBox[t] = rowAddress;
    emu_warp_barrier();
    for (int m = 0; m < 4; m++) {
        unsigned short v[2];
        for (int j = 0; j < 2; j++) {
            const int row = trans ? 2 * (lane % 4) + j : lane / 4;
            const int col = trans ? lane / 4 : 2 * (lane % 4) + j;
            const unsigned short* p = static_cast<const unsigned short*>(emu_rowBox[base + 8 * m + row]);
            v[j] = p[col];
        }
        r[m] = v[0] | ((unsigned) v[1] << 16);
    }
    emu_warp_barrier();
}

inline bool __any_sync(unsigned, bool p) {
    const int t = threadIdx.x, lane = t % 32, base = t - lane;
    emu_fragBox[t][0] = p;
    emu_warp_barrier();
    bool any = false;
    for (int l = 0; l < 32; l++) any = any || emu_fragBox[base + l][0] != 0;
    emu_warp_barrier();
    return any;
}

// dg_mma.cuh's functions.
inline void dg_mma_16x8x8(float* c, unsigned a0, unsigned a1, unsigned b0) {
    const unsigned a[2] = {a0, a1};
    emu_mma<8>(c, a, &b0);
}
inline void dg_split(float x, __half& hi, __half& lo) {
    hi = __float2half_rn(x);
    lo = __float2half_rn(x - __half2float(hi));
}
inline void dg_split2(float x0, float x1, unsigned& hi, unsigned& lo) {
    __half h0, l0, h1, l1;
    dg_split(x0, h0, l0);
    dg_split(x1, h1, l1);
    hi = (unsigned) __half_as_ushort(h0) | ((unsigned) __half_as_ushort(h1) << 16);
    lo = (unsigned) __half_as_ushort(l0) | ((unsigned) __half_as_ushort(l1) << 16);
}
inline unsigned dg_ld32(const __half* p) {
    unsigned u;
    std::memcpy(&u, p, 4);
    return u;
}
inline void dg_ldmatrix_x4(unsigned* r, const __half* rowAddress) { emu_ldmatrix_x4(r, rowAddress, false); }

// dg_mma_sm80.cuh's functions.
inline void dg_mma_16x8x16(float* c, const unsigned* a, unsigned b0, unsigned b1) {
    const unsigned b[2] = {b0, b1};
    emu_mma<16>(c, a, b);
}
inline void dg_ldmatrix_x4_trans(unsigned* r, const __half* rowAddress) { emu_ldmatrix_x4(r, rowAddress, true); }
inline void dg_split2_packed(float x0, float x1, unsigned& hi, unsigned& lo) { dg_split2(x0, x1, hi, lo); }
inline float dg_ex2(float x) { return std::exp2(x); }
inline void dg_mma_16x8x16_from_zero(float* d, const unsigned* a, unsigned b0, unsigned b1) {
    d[0] = d[1] = d[2] = d[3] = 0.0f;
    dg_mma_16x8x16(d, a, b0, b1);
}
// cp.async as a synchronous copy (srcBytes, then zeros to 16): a legal order of the asynchronous one,
// so the waits are no-ops; what this checks is where each chunk goes and which stage is read.
inline void dg_cp_async16(void* shared, const void* global, int srcBytes) {
    if ((reinterpret_cast<uintptr_t>(shared) & 15) != 0 || (srcBytes > 0 && (reinterpret_cast<uintptr_t>(global) & 15) != 0)) {
        std::fprintf(stderr, "cp.async: address not 16-byte aligned\n");
        std::abort();
    }
    std::memset(shared, 0, 16);
    std::memcpy(shared, global, srcBytes);
}
inline void dg_cp_async_commit() {}
template <int N>
inline void dg_cp_async_wait() {}

