package dev.dictum.whisper.model;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Weight;
import dev.dictum.whisper.format.WeightSource;

/** A LayerNorm's gain and bias. */
record LayerNormWeights(Weight gain, Weight bias) {
    static LayerNormWeights load(WeightSource src, Backend be, String prefix, int n) {
        return new LayerNormWeights(be.upload(src.tensor(prefix + ".weight", n)), be.upload(src.tensor(prefix + ".bias", n)));
    }
}
