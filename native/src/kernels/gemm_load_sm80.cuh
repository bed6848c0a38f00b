// The steps every sm_80+ GEMM body takes alike (gemm_tile.cuh's dg_gemm_tile_sm80, gemm_hilo.cuh,
// gemm_hilo_pipe.cuh): the zero-filling 16-byte tile load by cp.async, the accumulators' zeroing and
// the per-slice f32 accumulation, and the hi/lo mma chain of one k16 step. One definition, so that the
// three bodies load tiles and round alike. Included by gemm_tile.cuh, after dg_mma_sm80.cuh (or the
// CPU emulation's mma_emu.h), which provide cp.async and the m16n8k16 mma.
#pragma once

#if !defined(__HIP__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
// The 8 halves at (row, col) of the row-major matrix m (rows of ld halves) into shared memory by
// cp.async, or 16 zero bytes where `in` is false (a row or k past the matrix: cp.async with 0 source
// bytes fills with zeros and reads nothing; m itself is a valid address). The offset is computed
// only where it is read, as the bodies' measured builds had it.
__device__ __forceinline__ void dg_cp_async16_tile(void* shared, const __half* m, int row, int ld, int col, bool in) {
    dg_cp_async16(shared, in ? m + (long long) row * ld + col : m, in ? 16 : 0);
}

// The same at an offset the caller has computed once for several planes (x's hi and lo).
__device__ __forceinline__ void dg_cp_async16_at(void* shared, const __half* m, long long offset, bool in) {
    dg_cp_async16(shared, in ? m + offset : m, in ? 16 : 0);
}

// N accumulators set to zero.
template <int N>
__device__ __forceinline__ void dg_acc_zero(float* acc) {
#pragma unroll
    for (int e = 0; e < N; e++) {
        acc[e] = 0.0f;
    }
}

// acc += part over N floats: each slice is summed apart by the tensor cores and added here in f32,
// since their own accumulation truncates (see gemm_tile.cuh's sm_75 body).
template <int N>
__device__ __forceinline__ void dg_acc_add(float* acc, const float* part) {
#pragma unroll
    for (int e = 0; e < N; e++) {
        acc[e] += part[e];
    }
}

// One k16 step of an (m16, n8) block of x · wᵀ with x = hi + lo: lo first, then hi (the smaller term
// first into the sum); LO = false takes x as hi alone. The slice's first step starts from zero.
template <bool LO>
__device__ __forceinline__ void dg_mma_hilo_k16(float* part, const unsigned* ah, const unsigned* al, unsigned b0,
                                                unsigned b1, bool first) {
    if (LO) {
        if (first) {
            dg_mma_16x8x16_from_zero(part, al, b0, b1);
        } else {
            dg_mma_16x8x16(part, al, b0, b1);
        }
        dg_mma_16x8x16(part, ah, b0, b1);
    } else if (first) {
        dg_mma_16x8x16_from_zero(part, ah, b0, b1);
    } else {
        dg_mma_16x8x16(part, ah, b0, b1);
    }
}
#endif
