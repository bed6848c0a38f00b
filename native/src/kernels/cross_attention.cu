// Decoder cross-attention, as Backend.crossAttention: a few query rows against one encoded
// window (1500 keys) whose keys are stored transposed (channel c of key j at c * keysStride + j),
// so the score loop reads keysT coalesced along the keys. One block per (head, row): all scores
// in shared memory, block reductions for the max and the sum, then P·V with the block split into
// blockDim / headDim groups of headDim threads (each group a strided share of the keys).
#include "block_reduce.cuh"

extern "C" __global__ void __launch_bounds__(1024) cross_attention_f32(const float* q, int rows, const float* keysT,
                                                                       int keysStride, const float* values, int keys,
                                                                       int heads, int headDim, float* out) {
    extern __shared__ float sm[];
    const int hd = headDim;
    float* s = sm;              // [keys]
    float* qh = s + keys;       // [hd]
    float* redMax = qh + hd;    // [32]
    float* redSum = redMax + 32; // [32]
    float* part = redSum + 32;  // [blockDim]

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
    const float* kh = keysT + (long long) h * hd * keysStride;
    for (int j = tid; j < keys; j += blockDim.x) {
        float dot = 0.0f;
        for (int d = 0; d < hd; d++) {
            dot = fmaf(qh[d], kh[(long long) d * keysStride + j], dot);
        }
        const float sj = dot * scale;
        s[j] = sj;
        mx = fmaxf(mx, sj);
    }
    mx = dg_block_max(mx, redMax);

    float sum = 0.0f;
    for (int j = tid; j < keys; j += blockDim.x) {
        const float e = expf(s[j] - mx);
        s[j] = e;
        sum += e;
    }
    sum = dg_block_sum(sum, redSum); // its barrier also publishes every s[j]

    const int groups = blockDim.x / hd;
    const int g = tid / hd;
    const int d = tid - g * hd;
    if (g < groups) {
        float acc = 0.0f;
        const float* vh = values + h * hd + d;
        for (int j = g; j < keys; j += groups) {
            acc = fmaf(s[j], vh[(long long) j * width], acc);
        }
        part[g * hd + d] = acc;
    }
    __syncthreads();
    if (tid < hd) {
        float t = 0.0f;
        for (int i = 0; i < groups; i++) {
            t += part[i * hd + tid];
        }
        out[(long long) r * width + h * hd + tid] = t * (1.0f / sum);
    }
}
