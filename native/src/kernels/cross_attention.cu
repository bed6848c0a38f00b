// Decoder cross-attention, as Backend.crossAttention: a few query rows against one encoded
// window (1500 keys) whose keys are stored transposed (channel c of key j at c * keysStride + j),
// so the score loop reads keysT coalesced along the keys.
//
// Split over the keys ("flash decoding"): a decoded token has 1 row × heads (6–20) pairs, and one
// block per pair left 112 of an H100's 132 SMs idle while 20 read 15 MB of K/V per layer. Here
// gridDim.z blocks share a (head, row), each taking a contiguous chunk of the keys: scores in
// shared memory, block reductions for the chunk's max m and sum l = Σ exp(s - m), then P·V with
// the block split into blockDim / headDim groups of headDim threads. With one chunk the block
// writes out directly. Otherwise it writes (m, l, acc[headDim]) to `partial`, and the last of the
// pair's blocks to finish (a ticket counter, reset by that block for the next launch) rescales
// and adds the chunks **in chunk order**: the ticket only picks who adds, never the order, so the
// result is the same bits on every run.
//
// Latency, not bandwidth, bounds a decoded token's launch (a large-v3 chunk is 108 keys × 64
// channels of K and of V: 55 KB per block, ~1 µs at an SM's share of the copy rate), so every phase
// keeps its loads independent: with the head width known at compile time (64 in every Whisper,
// `cross_attention_f32_hd64`) a key's 64 channels are 64 loads in flight, V is read as float4 by
// groups of headDim / 4 threads (8 groups of 16 keys' worth in flight instead of 2 groups walking 54
// keys one load at a time), and the last block reads the chunks' partials with independent L2
// loads. The generic entry keeps any head width and block size.
//
// The keys and values come in f32 or, since issue 22, in f16 (`cross_attention_f16kv*`: the GPU
// stores every window's cross K/V that way, half the bytes a decoded token reads): each element is
// widened to f32 as it is loaded, and every product, sum and partial stays f32.
#include "block_reduce.cuh"
#include "kv_half.cuh"

// The chunks' partials are written by other blocks: read them from L2 (CUDA's ld.global.cg), past
// an L1 that is not coherent between blocks; HIP's volatile load does the same on AMD's L1.
#if defined(__HIP__)
#define DG_LOAD_L2(p) (*(const volatile float*) (p))
#else
#define DG_LOAD_L2(p) __ldcg(p)
#endif

// HD: the head width when known at compile time (then hd == HD), 0 for any (hd = headDim).
// KV: how keysT and values are stored (float or __half).
template <int HD, typename KV>
__device__ __forceinline__ void cross_attention_body(const float* q, int rows, const KV* keysT, int keysStride,
                                                     const KV* values, int keys, int heads, int headDim,
                                                     float* out, float* partial, unsigned int* tickets) {
    extern __shared__ float sm[];
    const int hd = HD > 0 ? HD : headDim;
    const int chunks = gridDim.z;
    const int chunk = (keys + chunks - 1) / chunks;
    const int k0 = blockIdx.z * chunk;
    const int nk = max(0, min(keys, k0 + chunk) - k0);
    float* s = sm;               // [chunk]
    float* qh = s + chunk;       // [hd]
    float* redMax = qh + hd;     // [32]
    float* redSum = redMax + 32; // [32]
    float* part = redSum + 32;   // [blockDim], or [4 * blockDim] when HD > 0 (float4 groups)
    __shared__ unsigned int lastFlag;

    const int h = blockIdx.x;
    const int r = blockIdx.y;
    const int tid = threadIdx.x;
    const int width = heads * hd;
    const float scale = (float) (1.0 / sqrt((double) hd));

    for (int d = tid; d < hd; d += blockDim.x) {
        qh[d] = q[(long long) r * width + h * hd + d];
    }
    __syncthreads();

    float mx = -DG_INF;
    const KV* kh = keysT + (long long) h * hd * keysStride + k0;
    for (int j = tid; j < nk; j += blockDim.x) {
        float dot = 0.0f;
#pragma unroll(HD > 0 ? HD : 16)
        for (int d = 0; d < hd; d++) {
            dot = fmaf(qh[d], dg_kv(kh[(long long) d * keysStride + j]), dot);
        }
        const float sj = dot * scale;
        s[j] = sj;
        mx = fmaxf(mx, sj);
    }
    mx = dg_block_max(mx, redMax);

    float sum = 0.0f;
    for (int j = tid; j < nk; j += blockDim.x) {
        const float e = expf(s[j] - mx);
        s[j] = e;
        sum += e;
    }
    sum = dg_block_sum(sum, redSum); // its barrier also publishes every s[j]

    // P·V: groups of threads, each group a stride of the chunk's keys, summed in group order after.
    const KV* vh = values + (long long) k0 * width + h * hd;
    const bool vec = HD > 0 && HD % 4 == 0 && ((unsigned long long) values & (4 * sizeof(KV) - 1)) == 0
                     && blockDim.x % (HD / 4 > 0 ? HD / 4 : 1) == 0;
    int groups;
    if (vec) {
        constexpr int per = HD / 4 > 0 ? HD / 4 : 1; // threads per group, 4 channels each
        groups = blockDim.x / per;
        const int g = tid / per;
        const int c = 4 * (tid - g * per);
        float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll 16
        for (int j = g; j < nk; j += groups) {
            const float4 v = dg_kv4(vh + (long long) j * width + c);
            const float p = s[j];
            acc.x = fmaf(p, v.x, acc.x);
            acc.y = fmaf(p, v.y, acc.y);
            acc.z = fmaf(p, v.z, acc.z);
            acc.w = fmaf(p, v.w, acc.w);
        }
        float* mine = part + g * hd + c;
        mine[0] = acc.x;
        mine[1] = acc.y;
        mine[2] = acc.z;
        mine[3] = acc.w;
    } else {
        groups = blockDim.x / hd;
        const int g = tid / hd;
        const int d = tid - g * hd;
        if (g < groups) {
            float acc = 0.0f;
#pragma unroll 8
            for (int j = g; j < nk; j += groups) {
                acc = fmaf(s[j], dg_kv(vh[(long long) j * width + d]), acc);
            }
            part[g * hd + d] = acc;
        }
    }
    __syncthreads();
    const long long pair = (long long) r * heads + h;
    if (chunks == 1) {
        if (tid < hd) {
            float t = 0.0f;
            for (int i = 0; i < groups; i++) {
                t += part[i * hd + tid];
            }
            out[(long long) r * width + h * hd + tid] = t * (1.0f / sum);
        }
        return; // uniform: chunks is the same for every block
    }
    float* mine = partial + (pair * chunks + blockIdx.z) * (hd + 2);
    if (tid < hd) {
        float t = 0.0f;
        for (int i = 0; i < groups; i++) {
            t += part[i * hd + tid];
        }
        mine[2 + tid] = t;
    }
    if (tid == 0) {
        mine[0] = mx;
        mine[1] = sum;
    }
    __threadfence(); // this block's partial is visible to the whole device before its ticket
    __syncthreads();
    if (tid == 0) {
        lastFlag = atomicAdd(tickets + pair, 1u) == (unsigned int) (chunks - 1) ? 1u : 0u;
    }
    __syncthreads();
    if (lastFlag == 0u) {
        return; // uniform over the block
    }
    __threadfence();
    // The last block: every chunk's partial is written; independent loads, added in chunk order.
    const float* all = partial + pair * chunks * (hd + 2);
    float m = -DG_INF;
#pragma unroll 8
    for (int c = 0; c < chunks; c++) {
        m = fmaxf(m, DG_LOAD_L2(all + c * (hd + 2)));
    }
    if (tid < hd) {
        float l = 0.0f;
        float t = 0.0f;
#pragma unroll 8
        for (int c = 0; c < chunks; c++) {
            const float f = expf(DG_LOAD_L2(all + c * (hd + 2)) - m); // an empty chunk has m = -inf: f = 0
            l = fmaf(DG_LOAD_L2(all + c * (hd + 2) + 1), f, l);
            t = fmaf(DG_LOAD_L2(all + c * (hd + 2) + 2 + tid), f, t);
        }
        out[(long long) r * width + h * hd + tid] = t / l;
    }
    if (tid == 0) {
        tickets[pair] = 0u; // ready for the next launch (graph replays reuse the counters)
    }
}

// Any head width; blocks of up to 1024 threads (a multiple of the warp size, at least headDim).
extern "C" __global__ void __launch_bounds__(1024) cross_attention_f32(const float* q, int rows, const float* keysT,
                                                                       int keysStride, const float* values, int keys,
                                                                       int heads, int headDim, float* out,
                                                                       float* partial, unsigned int* tickets) {
    cross_attention_body<0, float>(q, rows, keysT, keysStride, values, keys, heads, headDim, out, partial, tickets);
}

// headDim == 64 (every Whisper), blocks of up to 256 threads: shared memory holds 4 × blockDim
// partial floats (the float4 groups) instead of blockDim.
extern "C" __global__ void __launch_bounds__(256) cross_attention_f32_hd64(const float* q, int rows,
                                                                          const float* keysT, int keysStride,
                                                                          const float* values, int keys, int heads,
                                                                          int headDim, float* out, float* partial,
                                                                          unsigned int* tickets) {
    cross_attention_body<64, float>(q, rows, keysT, keysStride, values, keys, heads, 64, out, partial, tickets);
}

// The same two with the keys and values stored in f16 (the GPU's cross K/V).
extern "C" __global__ void __launch_bounds__(1024) cross_attention_f16kv(const float* q, int rows, const __half* keysT,
                                                                         int keysStride, const __half* values, int keys,
                                                                         int heads, int headDim, float* out,
                                                                         float* partial, unsigned int* tickets) {
    cross_attention_body<0, __half>(q, rows, keysT, keysStride, values, keys, heads, headDim, out, partial, tickets);
}

extern "C" __global__ void __launch_bounds__(256) cross_attention_f16kv_hd64(const float* q, int rows,
                                                                            const __half* keysT, int keysStride,
                                                                            const __half* values, int keys, int heads,
                                                                            int headDim, float* out, float* partial,
                                                                            unsigned int* tickets) {
    cross_attention_body<64, __half>(q, rows, keysT, keysStride, values, keys, heads, 64, out, partial, tickets);
}
