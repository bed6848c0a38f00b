package dev.dictum.whisper.model;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Weight;
import dev.dictum.whisper.format.WeightSource;

/** One attention block's projections (OpenAI names: query, key, value, out; the key has no bias). */
record AttentionWeights(Weight query, Weight queryBias, Weight key, Weight value, Weight valueBias, Weight out,
        Weight outBias) {

    static AttentionWeights load(WeightSource src, Backend be, String prefix, int n) {
        return new AttentionWeights(
                be.upload(src.tensor(prefix + ".query.weight", n, n)),
                be.upload(src.tensor(prefix + ".query.bias", n)),
                be.upload(src.tensor(prefix + ".key.weight", n, n)),
                be.upload(src.tensor(prefix + ".value.weight", n, n)),
                be.upload(src.tensor(prefix + ".value.bias", n)),
                be.upload(src.tensor(prefix + ".out.weight", n, n)),
                be.upload(src.tensor(prefix + ".out.bias", n)));
    }
}
