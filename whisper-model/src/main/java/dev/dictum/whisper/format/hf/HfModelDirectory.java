package dev.dictum.whisper.format.hf;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dictum.gpu.HostTensor;
import dev.dictum.whisper.format.GenerationConfig;
import dev.dictum.whisper.format.ModelFormatException;
import dev.dictum.whisper.format.WeightSource;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.tokenizer.BpeTokenizer;
import dev.dictum.whisper.tokenizer.SpecialTokens;
import dev.dictum.whisper.tokenizer.Vocabulary;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * A Whisper model in Hugging Face layout (WhisperForConditionalGeneration as saved by
 * transformers): config.json, safetensors weights (one file or index + shards), the tokenizer
 * files and optionally generation_config.json. Weights are memory-mapped into an arena that
 * {@link #close()} releases; every tensor handed out becomes invalid then.
 */
public final class HfModelDirectory implements WeightSource {
    private final Path dir;
    private final WhisperDims dims;
    private final BpeTokenizer tokenizer;
    private final GenerationConfig generation;
    private final Arena arena;
    private final HfWeights weights;
    private volatile boolean closed;

    private HfModelDirectory(Path dir, WhisperDims dims, BpeTokenizer tokenizer, GenerationConfig generation,
            Arena arena, HfWeights weights) {
        this.dir = dir;
        this.dims = dims;
        this.tokenizer = tokenizer;
        this.generation = generation;
        this.arena = arena;
        this.weights = weights;
    }

    /**
     * Opens and checks a model directory: configs, vocabulary, special-token ids and the safetensors
     * headers. Tensor shapes are checked when a tensor is asked for.
     *
     * @throws ModelFormatException with a one-line message naming the file at fault
     */
    public static HfModelDirectory open(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new ModelFormatException(dir + ": no such model directory");
        }
        Path configFile = dir.resolve("config.json");
        HfConfig config = HfConfig.read(configFile);
        SpecialTokens specials = SpecialTokens.forVocabSize(config.dims().nVocab());
        Path generationFile = dir.resolve("generation_config.json");
        JsonNode generationJson = JsonFiles.readObjectIfPresent(generationFile);
        HfTokenizerFiles tokenizerFiles = HfTokenizerFiles.read(dir);
        List<String> languages = HfSpecialTokens.check(specials, config, configFile.toString(), generationJson,
                generationFile.toString(), tokenizerFiles);
        List<byte[]> text = HfTextTokens.of(tokenizerFiles, specials.eot(), specials.vocabSize());
        BpeTokenizer tokenizer;
        try {
            tokenizer = new BpeTokenizer(new Vocabulary(text, specials, languages));
        } catch (IllegalArgumentException e) {
            throw new ModelFormatException(tokenizerFiles.vocabSource() + ": " + e.getMessage(), e);
        }
        GenerationConfig generation = HfGeneration.read(generationJson, generationFile, tokenizer);

        Arena arena = Arena.ofShared();
        try {
            HfWeights weights = HfWeights.open(dir, arena);
            return new HfModelDirectory(dir, config.dims(), tokenizer, generation, arena, weights);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    @Override
    public String description() {
        return dir.toString();
    }

    @Override
    public WhisperDims dims() {
        return dims;
    }

    @Override
    public Set<String> names() {
        return weights.names();
    }

    @Override
    public HostTensor tensor(String canonicalName, long... expectedShape) {
        if (closed) {
            throw new IllegalStateException(dir + " is closed");
        }
        return weights.tensor(canonicalName, expectedShape, dir.toString());
    }

    @Override
    public Vocabulary vocabulary() {
        return tokenizer.vocabulary();
    }

    /** The BPE tokenizer over {@link #vocabulary()}. */
    public BpeTokenizer tokenizer() {
        return tokenizer;
    }

    @Override
    public GenerationConfig generation() {
        return generation;
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            arena.close();
        }
    }
}
