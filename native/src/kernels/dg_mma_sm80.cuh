// NVIDIA tensor-core helpers that need sm_80 (CUDA only; use under __CUDA_ARCH__ >= 800, which the
// cubins' compute_80 PTX has and the shipped compute_75 PTX has not). Layouts as dg_mma.cuh, from
// the PTX ISA ("Matrix Fragments for mma.m16n8k16", "ldmatrix"), g = lane / 4, t = lane % 4:
//   A (16 x 16, row major), four .f16x2 registers: a0 = A[g][2t, 2t+1], a1 = A[g+8][2t, 2t+1],
//     a2 = A[g][2t+8, 2t+9], a3 = A[g+8][2t+8, 2t+9]
//   B (16 x 8, column major), two: b0 = B[2t, 2t+1][g], b1 = B[2t+8, 2t+9][g]
//   C/D (16 x 8) f32 as m16n8k8's.
// One m16n8k16 does the work of two m16n8k8: half the mma instructions for the same products.
// The CPU emulation of attention.cu (native/src/test/emu/mma_emu.h) implements these same layouts.
#pragma once
#include "dictum_gpu.h"

__device__ __forceinline__ void dg_mma_16x8x16(float* c, const unsigned* a, unsigned b0, unsigned b1) {
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// Four 8 x 8 b16 matrices, transposed: lane l gets rows 2 (l % 4), 2 (l % 4) + 1 of column l / 4
// of each (of a key-major tile: the B fragment of keys x channels). Row addresses as dg_ldmatrix_x4
// (lane i: row i % 8 of matrix i / 8, 16-byte aligned).
__device__ __forceinline__ void dg_ldmatrix_x4_trans(unsigned* r, const __half* rowAddress) {
    const unsigned a = (unsigned) __cvta_generic_to_shared(rowAddress);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a));
}

// dg_split2 by sm_80's packed conversion (cvt.rn.f16x2.f32): the same halves (hi = f16(x),
// lo = f16(x - hi), round to nearest even), 6 instructions per pair instead of 10.
__device__ __forceinline__ void dg_split2_packed(float x0, float x1, unsigned& hi, unsigned& lo) {
    const __half2 h = __floats2half2_rn(x0, x1);
    const float2 f = __half22float2(h);
    const __half2 l = __floats2half2_rn(x0 - f.x, x1 - f.y);
    hi = *reinterpret_cast<const unsigned*>(&h);
    lo = *reinterpret_cast<const unsigned*>(&l);
}

// 2^x by the SFU (ex2.approx.ftz.f32: about 2 ulp, the accuracy of CUDA's expf; a result below
// 2^-126 flushes to zero, 2^-inf = 0). Not sm_80-specific, but here so that the CPU emulation
// replaces it with the rest (inline PTX).
__device__ __forceinline__ float dg_ex2(float x) {
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
    return y;
}

// d = a . b (no accumulator input: a zero register, not four zeroing moves).
__device__ __forceinline__ void dg_mma_16x8x16_from_zero(float* d, const unsigned* a, unsigned b0, unsigned b1) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                 "{%8, %9}, {%10, %10, %10, %10};\n"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1), "f"(0.0f));
}

// 16 bytes from global to shared, bypassing L1; srcBytes < 16 fills the rest with zeros.
__device__ __forceinline__ void dg_cp_async16(void* shared, const void* global, int srcBytes) {
    const unsigned a = (unsigned) __cvta_generic_to_shared(shared);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(a), "l"(global), "r"(srcBytes));
}

__device__ __forceinline__ void dg_cp_async_commit() {
    asm volatile("cp.async.commit_group;\n" ::);
}

// Waits until at most N of this thread's committed groups are still in flight.
template <int N>
__device__ __forceinline__ void dg_cp_async_wait() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}
