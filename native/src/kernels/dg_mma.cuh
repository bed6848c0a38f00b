// NVIDIA tensor cores through mma.sync (CUDA only; never included by the HIP build).
//
// m16n8k8 with f16 operands and f32 accumulation: the shape sm_75 already has, so the one PTX for
// compute_75 that the build makes (and the cubins ptxas makes from it for sm_80..sm_90) carries it.
// Fragment layouts are the PTX ISA's ("Matrix Fragments for mma.m16n8k8"), with g = lane / 4 and
// t = lane % 4:
//   A (16 x 8, row major), two .f16x2 registers: a0 = A[g][2t, 2t+1], a1 = A[g+8][2t, 2t+1]
//   B (8 x 8, column major), one .f16x2 register: b0 = B[2t, 2t+1][g]
//   C/D (16 x 8) f32: c0, c1 = C[g][2t, 2t+1], c2, c3 = C[g+8][2t, 2t+1]
// The C layout of one 16 x 8 block is the A layout of one 16 x 8 k-step, so a score tile computed
// by one mma feeds the next mma (P . V) straight from registers.
//
// Precision: activations are f32 and the CPU backend is the reference, so an f32 value x enters
// as two f16 halves, hi = f16(x) and lo = f16(x - hi), and x . w = hi . w + lo . w. The pair holds
// x to about 2^-22 relative (lo rounds to 11 bits of the 11-bit remainder), close to f32, for
// |x| < 65504; products of f16 values are exact in f32 and the tensor cores accumulate in f32.
#pragma once
#include "dg_split.cuh"
#include "dictum_gpu.h"

__device__ __forceinline__ void dg_mma_16x8x8(float* c, unsigned a0, unsigned a1, unsigned b0) {
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a0), "r"(a1), "r"(b0));
}

// Two floats as the hi and lo .f16x2 registers (first value in the low half, as the fragments want).
__device__ __forceinline__ void dg_split2(float x0, float x1, unsigned& hi, unsigned& lo) {
    __half h0, l0, h1, l1;
    dg_split(x0, h0, l0);
    dg_split(x1, h1, l1);
    hi = (unsigned) __half_as_ushort(h0) | ((unsigned) __half_as_ushort(h1) << 16);
    lo = (unsigned) __half_as_ushort(l0) | ((unsigned) __half_as_ushort(l1) << 16);
}

__device__ __forceinline__ unsigned dg_ld32(const __half* p) {
    return *reinterpret_cast<const unsigned*>(p);
}

// Four 8 x 8 b16 matrices from shared memory, one register each, in the mma fragment layout
// (lane l holds row l / 4, columns 2 (l % 4), +1 of each). Lane i gives the address of row i % 8
// of matrix i / 8; every row address 16-byte aligned.
__device__ __forceinline__ void dg_ldmatrix_x4(unsigned* r, const __half* rowAddress) {
    const unsigned a = (unsigned) __cvta_generic_to_shared(rowAddress);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a));
}
