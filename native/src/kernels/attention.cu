// Multi-head scaled dot-product attention, flash-style, as Backend.attention: the encoder's
// 1500 x 1500 self-attention and the decoder's KV-cached self-attention (queries 1..n, causal).
//
// A block takes 32 queries (NVIDIA on sm_80+: up to 64) of one (sequence b, head h) and walks the
// visible keys tile by tile with an online softmax: per query a running max m and sum l; when a tile
// raises the max, the output accumulated so far is rescaled by exp(m_old - m_new). The full score
// matrix never exists.
//
// One module, three bodies chosen per target at build time (same ABI; queries per block: ABI.md), each
// in its own header; the online-softmax steps they share are attention_softmax.cuh's:
// - NVIDIA (nvcc), sm_80+ cubins at head size <= 64: dg_attention_mma64 (attention_mma64.cuh; 64
//   queries per block, m16n8k16). Head sizes 65..128 (no Whisper): the portable body below, as on AMD.
//   Otherwise, and in the shipped compute_75 PTX:
// - NVIDIA (nvcc): dg_attention_mma (attention_mma.cuh), tensor cores (dg_mma.cuh), FlashAttention-2 style. Warp w owns 16 query rows
//   ((w % 2) * 16 ..) and the warp pair w / 2 takes the first or second 16 keys of every 32-key
//   chunk. Q sits in registers as f16 hi/lo fragments; each pair stages its 16 keys (hi/lo) and
//   its 16 values transposed (hi/lo) in the launch's dynamic shared memory. Scores S = Q.K^T (3
//   mmas per product: hi.hi, hi.lo, lo.hi), online softmax in registers (row max and sum over the
//   4 lanes that share a row), P.V from the score registers (3 mmas again); at the end the two
//   pairs' (max, sum, output) are merged through shared memory. Scores and output stay f32-like
//   (dg_mma.cuh on the split), so the CPU backend's limits hold.
// - portable (attention_portable.cuh; every AMD target: gfx10 has no matrix cores; on NVIDIA only as
//   the test-only module attention_portable, built with -DDG_ATTENTION_PORTABLE): f32 FMA, Q and the output rows in
//   registers, K/V tiles in shared memory, scores reduced across lanes by shuffles (see below).
#include "dictum_gpu.h"

#define DG_AQ 32         // queries per block
#define DG_AK 32         // keys per tile
#define DG_AT 128        // threads per block
#define DG_AMAXD 128     // largest head size
#include "attention_softmax.cuh"

#if !defined(__HIP__) && !defined(DG_ATTENTION_PORTABLE)
#if !defined(DG_EMU_MMA) // the CPU emulation (native/src/test/emu/mma_emu.h) brings its own
#include "dg_mma.cuh"
#include "dg_mma_sm80.cuh"
#endif
// At least 4 blocks (16 warps) per SM: caps registers at 128 per thread, which the head-size-64
// paths (every Whisper) fit without spills; at head size 128 the tensor-core body spilled, so those
// heads take the portable body, and no path of the function needs a stack (CudaDriver: why it matters).
#define DG_AMMA_MIN_BLOCKS 4
#include "attention_mma.cuh"
#include "attention_mma64.cuh"
#include "attention_portable.cuh"

// Queries go to blocks in runs of 32: gridDim.x blocks share them, each taking
// roundUp(ceil(queries / gridDim.x), 32), so any grid covers every query once. GpuBackend launches
// ceil(queries / 64) blocks (head size > 64: ceil(queries / 32)). On sm_80+ with head size <= 64, a block with 33..64 queries runs them
// through dg_attention_mma64; every other block (32 or fewer queries: every decoder
// step and prompt, the encoder's last block; head size > 64; sm_75) runs dg_attention_mma once per
// 32 queries (a grid with more than 64 per block, which GpuBackend never launches, too), so the
// decoder's launches run the sm_75 body exactly as before. Each path returns on its own: one loop
// around both bodies made ptxas spill at the 128-register cap.
extern "C" __global__ void __launch_bounds__(DG_AT, DG_AMMA_MIN_BLOCKS) attention_f32(const float* q, int qStride, int batch, int queries,
                                                                  const float* k, const float* v,
                                                                  long long kvBatchStride, int kvStride,
                                                                  const int* keys, int heads, int headDim,
                                                                  int causal, float* out) {
    const int b = blockIdx.z;
    const int h = blockIdx.y;
    const int hd = headDim;
    const float* qb = q + (long long) b * queries * qStride + h * hd;
    const float* kb = k + b * kvBatchStride + h * hd;
    const float* vb = v + b * kvBatchStride + h * hd;
    float* ob = out + (long long) b * queries * (heads * hd) + h * hd;
    const int per = ((queries + (int) gridDim.x - 1) / (int) gridDim.x + DG_AQ - 1) & ~(DG_AQ - 1);
    const int first = (int) blockIdx.x * per;
    const int end = min(first + per, queries);
    if (hd > 64) {
        // No Whisper has such heads: they take the portable f32 body (32 queries per call, as GpuBackend
        // launches them). The tensor-core body at head size 128 spilled 328 bytes a thread at the
        // 128-register cap, and a function's stack frame is what the CUDA driver reserves for every
        // thread the device can hold (CudaDriver: ~85 MiB on an H200), whichever path runs.
        for (int i0 = first; i0 < end; i0 += DG_AQ) {
            if (i0 != first) {
                __syncthreads(); // the previous call's last reads of shared memory are done
            }
            dg_attention_portable<128, 2>(qb, qStride, queries, kb, vb, kvStride, keys[b], hd, causal, ob, heads * hd,
                                          i0);
        }
        return;
    }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if (end - first > DG_AQ && per <= DG_AQ64) { // GpuBackend's grid: per is 64 wherever queries > 32
        dg_attention_mma64(qb, qStride, queries, kb, vb, kvStride, keys[b], hd, causal, ob, heads * hd, first);
        return;
    }
#endif
    for (int i0 = first; i0 < end; i0 += DG_AQ) {
        if (i0 != first) {
            __syncthreads();
        }
        dg_attention_mma<64>(qb, qStride, queries, kb, vb, kvStride, keys[b], hd, causal, ob, heads * hd, b, h, i0);
    }
}

#else // the portable f32 body: AMD (hipcc), and NVIDIA with -DDG_ATTENTION_PORTABLE (tests only)
#include "attention_portable.cuh"

// The entry repeats the NVIDIA body's first lines (this block's bases in Q, K, V and the output) on
// purpose: a shared helper changes the NVIDIA PTX, whose measured build is kept byte for byte.
extern "C" __global__ void __launch_bounds__(DG_AT) attention_f32(const float* q, int qStride, int batch, int queries,
                                                                  const float* k, const float* v,
                                                                  long long kvBatchStride, int kvStride,
                                                                  const int* keys, int heads, int headDim,
                                                                  int causal, float* out) {
    const int b = blockIdx.z;
    const int h = blockIdx.y;
    const int hd = headDim;
    const float* qb = q + (long long) b * queries * qStride + h * hd;
    const float* kb = k + b * kvBatchStride + h * hd;
    const float* vb = v + b * kvBatchStride + h * hd;
    float* ob = out + (long long) b * queries * (heads * hd) + h * hd;
#if defined(__gfx1100__)
    // LLVM 15 gives gfx1100 at most 128 VGPRs here (any waves-per-eu or num-vgpr hint notwithstanding),
    // where 4 queries per lane need ~140: 2 per lane (twice the LDS reads per FMA) but no scratch.
    constexpr int R64 = 2;
#else
    constexpr int R64 = 4;
#endif
    if (hd <= 64) {
        dg_attention_portable<64, R64>(qb, qStride, queries, kb, vb, kvStride, keys[b], hd, causal, ob, heads * hd,
                                  blockIdx.x * DG_AQ);
    } else {
        dg_attention_portable<128, 2>(qb, qStride, queries, kb, vb, kvStride, keys[b], hd, causal, ob, heads * hd,
                                   blockIdx.x * DG_AQ);
    }
}
#endif
