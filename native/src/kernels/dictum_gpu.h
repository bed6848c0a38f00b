// The vendor header: the few names that differ between CUDA and HIP, and nothing else.
// Kernels are written in the dialect both compilers accept; this file is included first by every
// .cu. HIP is detected by clang's __HIP__ (hipcc --genco, HIP_PLATFORM=amd).
//
// What is deliberately NOT here: __syncwarp. On gfx10 a wave runs its lanes in lockstep and ROCm
// has no __syncwarp; mapping it to __syncthreads() (a block barrier) is the bug of seed 000, where
// threads at the "warp" barrier and threads at a later block barrier were counted by the same
// s_barrier and released early. The kernels never need a warp barrier: warp-level exchange goes
// through shuffles only, and every block barrier is __syncthreads() reached by all threads.
#pragma once

#if defined(__HIP__)
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
// HIP's shuffles take no mask: a wave's active lanes always take part.
#define DG_SHFL_XOR(v, laneMask) __shfl_xor((v), (laneMask))
#define DG_SHFL(v, srcLane) __shfl((v), (srcLane))
#else
#include <cuda_fp16.h>
// Every lane of the warp is active wherever the kernels shuffle (uniform control flow).
#define DG_SHFL_XOR(v, laneMask) __shfl_xor_sync(0xffffffffu, (v), (laneMask))
#define DG_SHFL(v, srcLane) __shfl_sync(0xffffffffu, (v), (srcLane))
#endif

#define DG_INF __int_as_float(0x7f800000)

// Exact (erf) GELU, as PyTorch's default F.gelu and the CPU backend's Gelu: x * Phi(x),
// Phi(x) = erfc(-x / sqrt 2) / 2 (erfc keeps large negative x accurate; 1 + erf would cancel).
__device__ __forceinline__ float dg_gelu(float x) {
    return 0.5f * x * erfcf(-x * 0.70710678118654752f);
}

// Sum over the lanes of one warp/wave; every lane gets the total. warpSize is read at run time
// (32 on NVIDIA and RDNA wave32, 64 on GCN/CDNA).
__device__ __forceinline__ float dg_warp_sum(float v) {
    for (int m = warpSize / 2; m > 0; m >>= 1) {
        v += DG_SHFL_XOR(v, m);
    }
    return v;
}

__device__ __forceinline__ float dg_warp_max(float v) {
    for (int m = warpSize / 2; m > 0; m >>= 1) {
        v = fmaxf(v, DG_SHFL_XOR(v, m));
    }
    return v;
}
