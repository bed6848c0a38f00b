package dev.dictum.gpu;

/** What a backend's memory holds, for the memory budget (bench, doctor): each allocation has one. */
public enum MemoryCategory {
    /** Model weights as the backend holds them (on a GPU f16, or a q8_0 file's matrices as q8_0 blocks). */
    WEIGHTS("weights"),
    /** The decoder's self-attention key/value caches (and beam search's spare set). */
    SELF_KV("self K/V"),
    /** Cross-attention keys (transposed) and values of an encoded window, per decoder layer. */
    CROSS_KV("cross K/V"),
    /** What only the encoder holds: a window's output, the GEMMs' input planes, the f16 values' f32 stage. */
    ENCODER_SCRATCH("encoder scratch"),
    /**
     * What only the decoders hold: their step values and beam row tables, the cross-attention ops' partials,
     * and a feed's activations where the shared region has no room (a long prompt to several sequences).
     */
    DECODER_SCRATCH("decoder scratch"),
    /**
     * The one region the encoder's activations and the decoders' per-feed activations take in turn (issue 22
     * item 1: never both at once, so the device holds it once, as large as the larger of the two);
     * {@link Backend#allocateOverlaid}.
     */
    SHARED_SCRATCH("shared scratch"),
    /**
     * The one f16 buffer a q8_0 matrix is dequantised into right before its GEMM (issue 22: the encoder's
     * products and other many-row ones), shared by every such matrix and as large as the largest of them.
     */
    WEIGHT_SCRATCH("weight scratch"),
    /** Host-copy staging ring and the upload scratch (raw weights before conversion). */
    STAGING("staging"),
    /** Anything untagged (tests, tools). */
    OTHER("other");

    private final String label;

    MemoryCategory(String label) {
        this.label = label;
    }

    /** For tables: "self K/V". */
    public String label() {
        return label;
    }
}
