package dev.dictum.whisper.model;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Backend.Projection;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.Epilogue;
import dev.dictum.gpu.Weight;
import dev.dictum.whisper.format.WeightSource;
import dev.dictum.whisper.format.WhisperDims;

/** The text decoder's weights (immutable, shared by every {@link KvDecoderState}). */
final class TextDecoder {
    final WhisperDims dims;
    final Weight tokens;
    final Weight positions;
    final BlockWeights[] blocks;
    final LayerNormWeights ln;

    TextDecoder(WeightSource src, Backend be) {
        this.dims = src.dims();
        int n = dims.nTextState();
        tokens = be.upload(src.tensor("decoder.token_embedding.weight", dims.nVocab(), n));
        positions = be.upload(src.tensor("decoder.positional_embedding", dims.nTextCtx(), n));
        blocks = new BlockWeights[dims.nTextLayer()];
        for (int i = 0; i < blocks.length; i++) {
            blocks[i] = BlockWeights.decoder(src, be, "decoder.blocks." + i, n);
        }
        ln = LayerNormWeights.load(src, be, "decoder.ln", n);
        if (dims.nAudioState() != n) {
            throw new IllegalArgumentException("audio state " + dims.nAudioState() + " differs from text state " + n);
        }
    }

    /** Row length of the transposed cross-attention keys: padded so every row starts vector-aligned. */
    static int keysStride(int frames) {
        return (frames + 63) / 64 * 64;
    }

    /**
     * Cross-attention keys and values of every layer for the encoder output in {@code b}, computed
     * once per window into {@code b}'s buffers. The keys are stored transposed, the layout the
     * per-token cross-attention reads best. {@code keys} (at least frames × n_text_state floats, the
     * encoder's scratch) takes each layer's keys before they are transposed.
     */
    void project(Backend be, WindowBuffers b, Buffer keys) {
        int n = dims.nTextState();
        int t = b.frames;
        for (int l = 0; l < blocks.length; l++) {
            AttentionWeights c = blocks[l].cross();
            be.project(b.output, t, new Projection(c.key(), null, keys),
                    new Projection(c.value(), c.valueBias(), b.crossValues[l]));
            be.transpose(keys, t, n, b.crossKeysT[l], b.keysStride);
        }
    }
}
