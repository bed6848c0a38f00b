package dev.dictum.whisper.model;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.HostTensor;
import dev.dictum.gpu.Weight;
import dev.dictum.whisper.format.WeightSource;

/** One attention block's projections (OpenAI names: query, key, value, out; the key has no bias). */
record AttentionWeights(Weight query, Weight queryBias, Weight key, Weight value, Weight valueBias, Weight out,
        Weight outBias) {

    static AttentionWeights load(WeightSource src, Backend be, String prefix, int n) {
        HostTensor[] m = matrices(src, prefix, n);
        return of(src, be, prefix, n, new Weight[] {be.upload(m[0]), be.upload(m[1]), be.upload(m[2]), be.upload(m[3])});
    }

    /** The four matrices, in the order {@link #of} takes them: query, key, value, out. */
    static HostTensor[] matrices(WeightSource src, String prefix, int n) {
        return new HostTensor[] {src.tensor(prefix + ".query.weight", n, n), src.tensor(prefix + ".key.weight", n, n),
            src.tensor(prefix + ".value.weight", n, n), src.tensor(prefix + ".out.weight", n, n)};
    }

    /** The projections with their matrices {@code m} (resident already, or taking turns) and the biases uploaded. */
    static AttentionWeights of(WeightSource src, Backend be, String prefix, int n, Weight[] m) {
        return new AttentionWeights(m[0], be.upload(src.tensor(prefix + ".query.bias", n)), m[1], m[2],
                be.upload(src.tensor(prefix + ".value.bias", n)), m[3], be.upload(src.tensor(prefix + ".out.bias", n)));
    }
}
