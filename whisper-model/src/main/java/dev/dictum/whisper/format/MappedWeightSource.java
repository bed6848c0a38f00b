package dev.dictum.whisper.format;

import dev.dictum.gpu.HostTensor;
import dev.dictum.whisper.tokenizer.Vocabulary;
import java.lang.foreign.Arena;
import java.util.Set;

/**
 * What the ggml and CTranslate2 readers share once a model is opened: the checked tensor table, the
 * vocabulary and generation defaults, and the arena of the file mappings, which {@link #close()}
 * releases (so the tensors are valid until then). Each reader adds its dimensions and extras.
 */
public abstract class MappedWeightSource implements WeightSource {
    private final String description;
    private final Arena arena;
    private final TensorTable tensors;
    private final Vocabulary vocabulary;
    private final GenerationConfig generation;

    protected MappedWeightSource(String description, Arena arena, TensorTable tensors, Vocabulary vocabulary,
            GenerationConfig generation) {
        this.description = description;
        this.arena = arena;
        this.tensors = tensors;
        this.vocabulary = vocabulary;
        this.generation = generation;
    }

    @Override
    public final String description() {
        return description;
    }

    @Override
    public final Set<String> names() {
        return tensors.names();
    }

    @Override
    public final HostTensor tensor(String canonicalName, long... expectedShape) {
        return tensors.get(canonicalName, expectedShape);
    }

    @Override
    public final Vocabulary vocabulary() {
        return vocabulary;
    }

    @Override
    public final GenerationConfig generation() {
        return generation;
    }

    @Override
    public final void close() {
        arena.close();
    }
}
