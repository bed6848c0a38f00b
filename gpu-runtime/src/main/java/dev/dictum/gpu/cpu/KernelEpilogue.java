package dev.dictum.gpu.cpu;

/**
 * What happens to each output element after the dot product, fused into the kernels' stores so
 * the output is written exactly once: {@code c = act(alpha·(A·Bᵀ) + bias[n] + residual[m, n])}.
 * Any part may be absent (bias/residual null, act none). The residual may be the output itself
 * (same array, offset and stride): every element is read before it is overwritten.
 */
record KernelEpilogue(float alpha, float[] bias, boolean gelu, float[] residual, int residualOff, int ldr) {

    static final KernelEpilogue NONE = new KernelEpilogue(1f, null, false, null, 0, 0);

    static KernelEpilogue of(float[] bias, boolean gelu) {
        return bias == null && !gelu ? NONE : new KernelEpilogue(1f, bias, gelu, null, 0, 0);
    }

    /** The scalar form, for the kernels' row/column tails and the small-M paths. */
    float apply(float dot, int row, int col) {
        float v = alpha == 1f ? dot : alpha * dot;
        if (bias != null) {
            v += bias[col];
        }
        if (residual != null) {
            v += residual[residualOff + row * ldr + col];
        }
        return gelu ? Gelu.gelu(v) : v;
    }
}
