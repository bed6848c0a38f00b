// Multi-head scaled dot-product attention, flash-style, as Backend.attention: the encoder's
// 1500 x 1500 self-attention and the decoder's KV-cached self-attention (queries 1..n, causal).
//
// A block takes 32 queries of one (sequence b, head h). It keeps the Q tile, one 32-key K/V tile
// and the 32 x 32 score tile in shared memory and walks the visible keys tile by tile with an
// online softmax: per query a running max m and sum l; when a tile raises the max, the output
// accumulated so far is rescaled by exp(m_old - m_new). The full score matrix never exists.
// Output rows live in registers: thread t owns query t % 32 and channels t / 32 + 4 i.
#include "dictum_gpu.h"

#define DG_AQ 32         // queries per block
#define DG_AK 32         // keys per tile
#define DG_AT 128        // threads per block
#define DG_AMAXD 128     // largest head size
#define DG_ACH (DG_AMAXD / (DG_AT / DG_AQ)) // output channels per thread

extern "C" __global__ void __launch_bounds__(DG_AT) attention_f32(const float* q, int qStride, int batch, int queries,
                                                                  const float* k, const float* v,
                                                                  long long kvBatchStride, int kvStride,
                                                                  const int* keys, int heads, int headDim,
                                                                  int causal, float* out) {
    extern __shared__ float sm[];
    const int hd = headDim;
    float* qs = sm;                       // [AQ][hd]
    float* ks = qs + DG_AQ * hd;          // [AK][hd + 1]: column reads across keys hit distinct banks
    float* vs = ks + DG_AK * (hd + 1);    // [AK][hd]
    float* ss = vs + DG_AK * hd;          // [AQ][AK + 1]: scores, then probabilities
    float* mRow = ss + DG_AQ * (DG_AK + 1);
    float* lRow = mRow + DG_AQ;
    float* alphaRow = lRow + DG_AQ;

    const int b = blockIdx.z;
    const int h = blockIdx.y;
    const int i0 = blockIdx.x * DG_AQ;
    const int tid = threadIdx.x;
    const int nk = keys[b];
    const float scale = (float) (1.0 / sqrt((double) hd)); // as the CPU: in double, then float
    const float* kb = k + b * kvBatchStride + h * hd;
    const float* vb = v + b * kvBatchStride + h * hd;

    for (int e = tid; e < DG_AQ * hd; e += DG_AT) {
        const int r = e / hd;
        const int qi = i0 + r;
        qs[e] = qi < queries ? q[(long long) (b * queries + qi) * qStride + h * hd + (e - r * hd)] : 0.0f;
    }
    if (tid < DG_AQ) {
        mRow[tid] = -DG_INF;
        lRow[tid] = 0.0f;
    }
    // Keys any query of this block may see: query i sees keys < keys[b] - queries + i + 1 when causal.
    const int lastQuery = min(i0 + DG_AQ, queries) - 1;
    const int visibleMax = causal ? min(nk, nk - queries + lastQuery + 1) : nk;

    const int myRow = tid % DG_AQ;
    const int myCh = tid / DG_AQ;
    float o[DG_ACH];
#pragma unroll
    for (int c = 0; c < DG_ACH; c++) {
        o[c] = 0.0f;
    }
    __syncthreads();

    for (int kt = 0; kt < visibleMax; kt += DG_AK) {
        for (int e = tid; e < DG_AK * hd; e += DG_AT) {
            const int j = e / hd;
            const int d = e - j * hd;
            const int key = kt + j;
            const bool in = key < visibleMax;
            ks[j * (hd + 1) + d] = in ? kb[(long long) key * kvStride + d] : 0.0f;
            vs[e] = in ? vb[(long long) key * kvStride + d] : 0.0f;
        }
        __syncthreads();

        for (int e = tid; e < DG_AQ * DG_AK; e += DG_AT) {
            const int r = e / DG_AK;
            const int j = e - r * DG_AK;
            const int qi = i0 + r;
            const int key = kt + j;
            const int visible = causal ? nk - queries + qi + 1 : nk;
            float s = -DG_INF;
            if (qi < queries && key < visible) {
                float dot = 0.0f;
                const float* qr = qs + r * hd;
                const float* kr = ks + j * (hd + 1);
                for (int d = 0; d < hd; d++) {
                    dot = fmaf(qr[d], kr[d], dot);
                }
                s = dot * scale;
            }
            ss[r * (DG_AK + 1) + j] = s;
        }
        __syncthreads();

        if (tid < DG_AQ) { // online softmax update of query row tid
            float* sr = ss + tid * (DG_AK + 1);
            float tileMax = -DG_INF;
            for (int j = 0; j < DG_AK; j++) {
                tileMax = fmaxf(tileMax, sr[j]);
            }
            const float mOld = mRow[tid];
            const float mNew = fmaxf(mOld, tileMax);
            float alpha = 1.0f;
            float sum = 0.0f;
            if (mNew == -DG_INF) { // nothing visible yet: all probabilities 0
                for (int j = 0; j < DG_AK; j++) {
                    sr[j] = 0.0f;
                }
            } else {
                alpha = expf(mOld - mNew); // mOld = -inf gives 0
                for (int j = 0; j < DG_AK; j++) {
                    const float p = expf(sr[j] - mNew); // masked scores are -inf: p = 0
                    sr[j] = p;
                    sum += p;
                }
            }
            lRow[tid] = lRow[tid] * alpha + sum;
            mRow[tid] = mNew;
            alphaRow[tid] = alpha;
        }
        __syncthreads();

        const float alpha = alphaRow[myRow];
        const float* pr = ss + myRow * (DG_AK + 1);
#pragma unroll
        for (int c = 0; c < DG_ACH; c++) {
            o[c] *= alpha;
        }
        for (int j = 0; j < DG_AK; j++) {
            const float p = pr[j];
            const float* vr = vs + j * hd + myCh;
#pragma unroll
            for (int c = 0; c < DG_ACH; c++) {
                if (myCh + 4 * c < hd) {
                    o[c] = fmaf(p, vr[4 * c], o[c]);
                }
            }
        }
        __syncthreads(); // the next tile overwrites ks, vs and ss
    }

    // Normalise and stage the output tile in qs (no longer needed) so the stores are coalesced.
    const float l = lRow[myRow];
    const float inv = l > 0.0f ? 1.0f / l : 0.0f;
#pragma unroll
    for (int c = 0; c < DG_ACH; c++) {
        if (myCh + 4 * c < hd) {
            qs[myRow * hd + myCh + 4 * c] = o[c] * inv;
        }
    }
    __syncthreads();
    const int outStride = heads * hd;
    for (int e = tid; e < DG_AQ * hd; e += DG_AT) {
        const int r = e / hd;
        const int qi = i0 + r;
        if (qi < queries) {
            out[(long long) (b * queries + qi) * outStride + h * hd + (e - r * hd)] = qs[e];
        }
    }
}
