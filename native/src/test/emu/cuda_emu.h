// A CPU emulation of the few CUDA features attention.cu's portable (AMD) body uses, so that the body
// the RX 5700 XT would run is checked against a float64 reference without any GPU (issue 12): one
// block at a time as 128 std::threads, __syncthreads as a block barrier, shuffles through a per-warp
// buffer between two warp barriers, dynamic shared memory as one global array (poisoned per block).
// Functional only: no timing, no memory model beyond what the barriers order. Tests only
// (PortableAttentionEmulatorTest compiles attention_emu.cpp with g++ -include this file).
#pragma once
#include <algorithm>
#include <barrier>
#include <cmath>
#include <cstring>
#include <thread>
#include <vector>

struct dim3 { unsigned x = 0, y = 0, z = 0; };
struct float4 { float x, y, z, w; };
inline float4 make_float4(float a, float b, float c, float d) { return {a, b, c, d}; }
inline thread_local dim3 threadIdx;
inline dim3 blockIdx;
inline const int warpSize = 32;
inline std::barrier<>* emu_block;
inline std::barrier<>* emu_warp[4];
inline float emu_lanes[4][32];

inline void __syncthreads() { emu_block->arrive_and_wait(); }

inline float emu_exchange(float v, int src) {
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    emu_lanes[w][lane] = v;
    emu_warp[w]->arrive_and_wait();
    const float r = emu_lanes[w][src & 31];
    emu_warp[w]->arrive_and_wait();
    return r;
}
inline float __shfl_xor_sync(unsigned, float v, int mask) { return emu_exchange(v, (threadIdx.x & 31) ^ mask); }
inline float __shfl_sync(unsigned, float v, int src) { return emu_exchange(v, src); }
inline float __int_as_float(int i) {
    float f;
    std::memcpy(&f, &i, 4);
    return f;
}
using std::max;
using std::min;

#define __global__
#define __device__
#define __forceinline__ inline
#define __shared__
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
