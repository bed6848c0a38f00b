// A CPU emulation of the CUDA features Dictum's kernels use, so that a kernel source is checked
// against a float64 reference where no GPU is at hand (issue 12). One emulation for every such check:
//   - native/bench/kernel_emu.cpp: the decoder's GEMV kernels and layer_norm_f32, warp size 32
//     and 64, blocks in forward and reversed order (native/bench/kernel_emu.sh);
//   - cross_attention_emu.cpp: every cross_attention.cu entry, f32 and f16 K/V, the same way
//     (CrossAttentionEmulatorTest);
//   - attention_emu.cpp: attention.cu's portable (AMD) body (PortableAttentionEmulatorTest).
// One std::thread per GPU thread; the blocks of a launch run one at a time on one pool of threads
// (emu_launch), so blockIdx and the shared memory change only between blocks. __syncthreads is a
// barrier of the block; a shuffle is an exchange between two barriers of the warp (a lane that
// skips a shuffle its warp takes hangs the run, as it would be undefined on a GPU); atomics and
// fences are the C++ ones. Functional only: no timing, no memory model beyond what barriers order.
// Include it after the CUDA headers where a check needs CUDA's own types (__half); without them it
// gives float4 itself.
#pragma once
#include <algorithm>
#include <atomic>
#include <barrier>
#include <cmath>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

struct EmuDim {
    unsigned x = 1, y = 1, z = 1;
};
inline thread_local EmuDim threadIdx;
inline EmuDim blockIdx, blockDim, gridDim;
inline int warpSize = 32; // a variable: a check may run the same kernel at 32 and at 64
inline std::unique_ptr<std::barrier<>> emu_blockBarrier;
inline std::vector<std::unique_ptr<std::barrier<>>> emu_warpBarriers;
inline float emu_shuffleBox[1024];

#ifndef __VECTOR_TYPES_H__ // CUDA's vector_types.h, when the check includes it
struct float4 {
    float x, y, z, w;
};
inline float4 make_float4(float a, float b, float c, float d) { return {a, b, c, d}; }
#endif

// The CUDA headers define these for the host compiler; here they are plain C++.
#undef __global__
#undef __device__
#undef __forceinline__
#undef __shared__
#undef __launch_bounds__
#undef __align__
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
// Shared arrays declared inside a kernel are one per block: static, as blocks run one at a time.
// `extern __shared__` (dynamic shared memory) is the check's own array: it defines it and rewrites or
// redefines the declaration (kernel_emu.sh, attention_emu.cpp).
#define __shared__ static

inline void __syncthreads() { emu_blockBarrier->arrive_and_wait(); }
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }

// Every lane of the warp writes its value, then reads the source lane's (CUDA: the lane index is
// taken modulo the warp width).
inline float emu_exchange(float v, int srcLane) {
    const int t = threadIdx.x;
    const int base = t - t % warpSize;
    std::barrier<>& bar = *emu_warpBarriers[t / warpSize];
    emu_shuffleBox[t] = v;
    bar.arrive_and_wait();
    const float r = emu_shuffleBox[base + ((srcLane % warpSize) + warpSize) % warpSize];
    bar.arrive_and_wait();
    return r;
}
inline float __shfl_xor_sync(unsigned, float v, int laneMask) { return emu_exchange(v, (threadIdx.x % warpSize) ^ laneMask); }
inline float __shfl_sync(unsigned, float v, int srcLane) { return emu_exchange(v, srcLane); }
inline unsigned atomicAdd(unsigned* p, unsigned v) { return std::atomic_ref<unsigned>(*p).fetch_add(v); }
template <class T> inline T __ldg(const T* p) { return *p; }
template <class T> inline T __ldcg(const T* p) { return *p; }
inline float __int_as_float(int i) {
    float f;
    std::memcpy(&f, &i, 4);
    return f;
}
using std::max;
using std::min;

// Runs `kernel` for every block of `grid` with `block` threads (a multiple of warpSize), the blocks
// in order (x fastest) or reversed; `beforeBlock` runs on the launching thread before each block
// (e.g. to poison the shared memory).
template <class F, class B>
void emu_launch(EmuDim grid, unsigned block, bool reversed, F kernel, B beforeBlock) {
    gridDim = grid;
    blockDim = {block, 1, 1};
    std::vector<EmuDim> order;
    for (unsigned z = 0; z < grid.z; z++)
        for (unsigned y = 0; y < grid.y; y++)
            for (unsigned x = 0; x < grid.x; x++) order.push_back({x, y, z});
    if (reversed) std::reverse(order.begin(), order.end());
    emu_blockBarrier = std::make_unique<std::barrier<>>(block);
    emu_warpBarriers.clear();
    for (unsigned w = 0; w < block / warpSize; w++) emu_warpBarriers.push_back(std::make_unique<std::barrier<>>(warpSize));
    std::barrier<> gate(block + 1); // the pool and the launching thread, before and after each block
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < block; t++) {
        threads.emplace_back([t, &kernel, &gate, blocks = order.size()] {
            threadIdx = {t, 1, 1};
            for (size_t i = 0; i < blocks; i++) {
                gate.arrive_and_wait();
                kernel();
                gate.arrive_and_wait();
            }
        });
    }
    for (const EmuDim& b : order) {
        blockIdx = b;
        beforeBlock();
        gate.arrive_and_wait(); // the block starts
        gate.arrive_and_wait(); // every thread of it has returned
    }
    for (auto& th : threads) th.join();
}

template <class F>
void emu_launch(EmuDim grid, unsigned block, bool reversed, F kernel) {
    emu_launch(grid, block, reversed, kernel, [] {});
}
