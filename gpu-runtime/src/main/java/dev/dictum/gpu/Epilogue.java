package dev.dictum.gpu;

/** What a linear op does with its result before storing it: fused so the data is touched once. */
public enum Epilogue {
    /** Store {@code x·Wᵀ + b}. */
    NONE,
    /** Store {@code gelu(x·Wᵀ + b)} (exact, erf-based, as PyTorch's default). */
    GELU,
    /** Add {@code x·Wᵀ + b} to what the output holds: the residual connection. */
    ADD
}
