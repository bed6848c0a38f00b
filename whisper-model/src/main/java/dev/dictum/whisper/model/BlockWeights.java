package dev.dictum.whisper.model;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Weight;
import dev.dictum.whisper.format.WeightSource;

/**
 * One residual block: self-attention, cross-attention (decoder blocks only; null in the encoder)
 * and the MLP (n → 4n → n with GELU), each behind a pre-LayerNorm.
 */
record BlockWeights(LayerNormWeights attnLn, AttentionWeights attn, LayerNormWeights crossLn,
        AttentionWeights cross, LayerNormWeights mlpLn, Weight mlpUp, Weight mlpUpBias, Weight mlpDown,
        Weight mlpDownBias) {

    static BlockWeights load(WeightSource src, Backend be, String prefix, int n, boolean withCross) {
        return new BlockWeights(
                LayerNormWeights.load(src, be, prefix + ".attn_ln", n),
                AttentionWeights.load(src, be, prefix + ".attn", n),
                withCross ? LayerNormWeights.load(src, be, prefix + ".cross_attn_ln", n) : null,
                withCross ? AttentionWeights.load(src, be, prefix + ".cross_attn", n) : null,
                LayerNormWeights.load(src, be, prefix + ".mlp_ln", n),
                be.upload(src.tensor(prefix + ".mlp.0.weight", 4L * n, n)),
                be.upload(src.tensor(prefix + ".mlp.0.bias", 4L * n)),
                be.upload(src.tensor(prefix + ".mlp.2.weight", n, 4L * n)),
                be.upload(src.tensor(prefix + ".mlp.2.bias", n)));
    }
}
