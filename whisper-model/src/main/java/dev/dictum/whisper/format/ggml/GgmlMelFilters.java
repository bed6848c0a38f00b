package dev.dictum.whisper.format.ggml;

/**
 * The mel filterbank a ggml file embeds (OpenAI's mel_filters.npz): {@code nMel} rows of
 * {@code nFft} weights (201 for Whisper's 400-point FFT), row-major.
 */
public record GgmlMelFilters(int nMel, int nFft, float[] values) {
    public GgmlMelFilters {
        if (values.length != nMel * nFft) {
            throw new IllegalArgumentException(nMel + " x " + nFft + " filters need " + nMel * nFft + " values");
        }
        values = values.clone();
    }

    @Override
    public float[] values() {
        return values.clone();
    }
}
