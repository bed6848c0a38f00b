// Decoder self-attention through a row table, as Backend.attentionRows: beam search reorders its
// beams by rewriting each beam's list of cache rows, never the rows themselves, so key/value j of
// sequence b is row rows[b * rowsStride + j] of k and v (row stride kvStride), wherever it lies.
//
// One block per (query i, head h, sequence b): the decoder's few queries per sequence (one per beam
// and token) over at most n_text_ctx keys. The block walks the visible keys in tiles of DG_RT with an
// online softmax (attention_softmax.cuh's steps, as attention.cu's bodies):
//   - thread t scores key j0 + t: the dot product of the query and that key's row, in channel order
//     (16-byte loads where every row is 16-byte aligned: the same sums in the same order);
//   - the tile's max and sum by block reductions (block_reduce.cuh), the running max m, sum l and
//     every thread's output channel rescaled by exp(m_old - m_new) when the max moves;
//   - P.V: the block is G = blockDim / hd groups of hd threads, thread (g, c) adding p_j v_j[c] for the
//     tile's keys j = g, g + G, ... (coalesced along the row); at the end the groups' partial rows
//     are added in group order through shared memory and divided by l.
// f32 arithmetic throughout (every target: the tensor-core bodies of attention.cu need 16 queries to
// fill a fragment, a beam has one); no warp-size assumption beyond block_reduce.cuh's.
//
// The caches are f32 (attention_rows_f32) or, as the GPU keeps them since issue 22, f16
// (attention_rows_f16kv: each element widened to f32 as it is loaded, kv_half.cuh; the score loads are
// 8 bytes where aligned). With a row table (beams after a reorder) or without one (rows == null: key j
// of sequence b at element b * seqStride + j * kvStride: a prompt, a greedy step, beams not yet
// reordered): the f16 entry is every decoder self-attention of the GPU, no other kernel reads an f16
// cache.
#include "dictum_gpu.h"
#include "block_reduce.cuh"
#include "attention_softmax.cuh"
#include "kv_half.cuh"

#define DG_RT 128      // keys per tile = threads per block
#define DG_RMAXD 128   // largest head size

template <typename KV>
__device__ __forceinline__ void attention_rows_body(const float* q, int qStride, int queries, const KV* k,
                                                    const KV* v, int kvStride, const int* rows, int rowsStride,
                                                    long long seqStride, const int* keys, int heads, int headDim,
                                                    int causal, float* out) {
    __shared__ __align__(16) float qs[DG_RMAXD]; // the query row
    __shared__ float p[DG_RT];                   // one tile's probabilities
    __shared__ int rowOf[DG_RT];                 // one tile's rows
    __shared__ float part[DG_RT];                // the groups' output rows, for the final sum
    __shared__ float red[32];
    const int i = blockIdx.x;
    const int h = blockIdx.y;
    const int b = blockIdx.z;
    const int t = threadIdx.x;
    const int hd = headDim;
    const int n = causal ? keys[b] - queries + i + 1 : keys[b];
    const float scale = 1.0f / sqrtf((float) hd);
    const float* qi = q + ((long long) b * queries + i) * qStride + h * hd;
    for (int c = t; c < hd; c += blockDim.x) {
        qs[c] = qi[c];
    }
    // Without a table sequence b's rows start seqStride values in; its row j is then row j.
    const KV* kb = k + (rows ? 0 : (long long) b * seqStride);
    const KV* vb = v + (rows ? 0 : (long long) b * seqStride);
    const bool vec = (hd & 3) == 0 && (kvStride & 3) == 0 && (seqStride & 3) == 0
            && (reinterpret_cast<unsigned long long>(k) & (4 * sizeof(KV) - 1)) == 0;
    const int groups = blockDim.x / hd;
    const int g = t / hd;
    const int c = t % hd;
    const int* rb = rows ? rows + (long long) b * rowsStride : nullptr;
    float m = -DG_INF;
    float l = 0.0f;
    float acc = 0.0f;
    __syncthreads(); // qs is written
    for (int j0 = 0; j0 < n; j0 += DG_RT) {
        float s = -DG_INF;
        if (j0 + t < n) {
            const int r = rb ? rb[j0 + t] : j0 + t;
            rowOf[t] = r;
            const KV* kr = kb + (long long) r * kvStride + h * hd;
            float dot = 0.0f;
            if (vec) {
                const float4* q4 = reinterpret_cast<const float4*>(qs);
                for (int c4 = 0; c4 < hd / 4; c4++) {
                    const float4 kk = dg_kv4(kr + 4 * c4);
                    const float4 qq = q4[c4];
                    dot = fmaf(qq.x, kk.x, dot);
                    dot = fmaf(qq.y, kk.y, dot);
                    dot = fmaf(qq.z, kk.z, dot);
                    dot = fmaf(qq.w, kk.w, dot);
                }
            } else {
                for (int e = 0; e < hd; e++) {
                    dot = fmaf(qs[e], dg_kv(kr[e]), dot);
                }
            }
            s = dot * scale;
        }
        const float mNew = fmaxf(m, dg_block_max(s, red));
        __syncthreads(); // every thread has read red
        const float pj = dg_softmax_prob(s, mNew);
        p[t] = pj;
        const float alpha = dg_softmax_rescale(m, mNew);
        l = l * alpha + dg_block_sum(pj, red); // its barrier also publishes p and rowOf
        m = mNew;
        acc *= alpha;
        if (g < groups) {
            const int count = min(DG_RT, n - j0);
            const KV* vc = vb + h * hd + c;
#pragma unroll 8
            for (int jj = g; jj < count; jj += groups) { // the loads run ahead of the FMA chain
                acc = fmaf(p[jj], dg_kv(vc[(long long) rowOf[jj] * kvStride]), acc);
            }
        }
        __syncthreads(); // the tile's p, rowOf and red are read before the next tile writes them
    }
    if (g < groups) {
        part[t] = acc;
    }
    __syncthreads();
    if (t < hd) {
        float o = 0.0f;
        for (int gg = 0; gg < groups; gg++) {
            o += part[gg * hd + t];
        }
        out[((long long) b * queries + i) * (heads * hd) + h * hd + t] = o * dg_softmax_inverse(l);
    }
}

// The caches in f32 (Backend.attentionRows and attentionStep on f32 buffers) or in f16 (the GPU's self
// K/V); through a row table or, with rows == null, strided: sequence b's key j at element
// b * seqStride + j * kvStride of k and v.
extern "C" __global__ void __launch_bounds__(DG_RT) attention_rows_f32(const float* q, int qStride, int queries,
                                                                       const float* k, const float* v, int kvStride,
                                                                       const int* rows, int rowsStride,
                                                                       long long seqStride, const int* keys,
                                                                       int heads, int headDim, int causal,
                                                                       float* out) {
    attention_rows_body<float>(q, qStride, queries, k, v, kvStride, rows, rowsStride, seqStride, keys, heads, headDim,
                               causal, out);
}

extern "C" __global__ void __launch_bounds__(DG_RT) attention_rows_f16kv(const float* q, int qStride, int queries,
                                                                         const __half* k, const __half* v,
                                                                         int kvStride, const int* rows, int rowsStride,
                                                                         long long seqStride, const int* keys,
                                                                         int heads, int headDim, int causal,
                                                                         float* out) {
    attention_rows_body<__half>(q, qStride, queries, k, v, kvStride, rows, rowsStride, seqStride, keys, heads, headDim,
                                causal, out);
}
