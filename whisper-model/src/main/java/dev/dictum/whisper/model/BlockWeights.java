package dev.dictum.whisper.model;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.HostTensor;
import dev.dictum.gpu.Weight;
import dev.dictum.whisper.format.WeightSource;
import java.util.Arrays;

/**
 * One residual block: self-attention, cross-attention (decoder blocks only; null in the encoder)
 * and the MLP (n → 4n → n with GELU), each behind a pre-LayerNorm.
 */
record BlockWeights(LayerNormWeights attnLn, AttentionWeights attn, LayerNormWeights crossLn,
        AttentionWeights cross, LayerNormWeights mlpLn, Weight mlpUp, Weight mlpUpBias, Weight mlpDown,
        Weight mlpDownBias) {

    /** A decoder block, every weight uploaded. */
    static BlockWeights decoder(WeightSource src, Backend be, String prefix, int n) {
        return new BlockWeights(
                LayerNormWeights.load(src, be, prefix + ".attn_ln", n),
                AttentionWeights.load(src, be, prefix + ".attn", n),
                LayerNormWeights.load(src, be, prefix + ".cross_attn_ln", n),
                AttentionWeights.load(src, be, prefix + ".cross_attn", n),
                LayerNormWeights.load(src, be, prefix + ".mlp_ln", n),
                be.upload(src.tensor(prefix + ".mlp.0.weight", 4L * n, n)),
                be.upload(src.tensor(prefix + ".mlp.0.bias", 4L * n)),
                be.upload(src.tensor(prefix + ".mlp.2.weight", n, 4L * n)),
                be.upload(src.tensor(prefix + ".mlp.2.bias", n)));
    }

    /**
     * An encoder block's six matrices (99.9 % of its bytes), in the order {@link #encoder} takes them: the
     * attention's query, key, value and out, the MLP's up and down.
     */
    static HostTensor[] encoderMatrices(WeightSource src, String prefix, int n) {
        HostTensor[] m = Arrays.copyOf(AttentionWeights.matrices(src, prefix + ".attn", n), 6);
        m[4] = src.tensor(prefix + ".mlp.0.weight", 4L * n, n);
        m[5] = src.tensor(prefix + ".mlp.2.weight", n, 4L * n);
        return m;
    }

    /** An encoder block whose matrices {@code m} are made resident already (perhaps taking turns), its vectors uploaded. */
    static BlockWeights encoder(WeightSource src, Backend be, String prefix, int n, Weight[] m) {
        return new BlockWeights(
                LayerNormWeights.load(src, be, prefix + ".attn_ln", n),
                AttentionWeights.of(src, be, prefix + ".attn", n, m),
                null,
                null,
                LayerNormWeights.load(src, be, prefix + ".mlp_ln", n),
                m[4],
                be.upload(src.tensor(prefix + ".mlp.0.bias", 4L * n)),
                m[5],
                be.upload(src.tensor(prefix + ".mlp.2.bias", n)));
    }
}
