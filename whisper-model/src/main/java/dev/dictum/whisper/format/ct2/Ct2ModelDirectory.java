package dev.dictum.whisper.format.ct2;

import dev.dictum.whisper.format.GenerationConfig;
import dev.dictum.whisper.format.MappedWeightSource;
import dev.dictum.whisper.format.MappedFiles;
import dev.dictum.whisper.format.ModelFormatException;
import dev.dictum.whisper.format.TensorTable;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.tokenizer.BpeTokenizer;
import dev.dictum.whisper.tokenizer.SuppressTokens;
import dev.dictum.whisper.tokenizer.Vocabulary;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;

/**
 * A CTranslate2 / faster-whisper model directory: model.bin (memory-mapped), config.json and a
 * vocabulary. Weights may be float32, float16, bfloat16 or int8 (with per-row scales); int16 is
 * refused. Fused attention projections are split into canonical q, k, v views without copying.
 */
public final class Ct2ModelDirectory extends MappedWeightSource {
    /** Spec revisions of WhisperSpec so far (1 to 3); they changed config fields and enums, not weights. */
    private static final int NEWEST_REVISION = 3;
    private static final int MAX_INITIAL_TIMESTAMP_INDEX = 50;

    private final WhisperDims dims;
    private final List<AlignmentHead> alignmentHeads;

    private Ct2ModelDirectory(String description, Arena arena, WhisperDims dims, TensorTable tensors,
            Vocabulary vocabulary, GenerationConfig generation, List<AlignmentHead> alignmentHeads) {
        super(description, arena, tensors, vocabulary, generation);
        this.dims = dims;
        this.alignmentHeads = alignmentHeads;
    }

    /**
     * @throws ModelFormatException with a one-line message naming the file at fault
     */
    public static Ct2ModelDirectory open(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new ModelFormatException(dir + ": not a directory (a CTranslate2 model is a directory with model.bin)");
        }
        Path modelBin = dir.resolve("model.bin");
        String binName = modelBin.toString();
        Arena arena = Arena.ofShared();
        try {
            Ct2Binary bin = Ct2Binary.parse(MappedFiles.map(modelBin, arena), binName);
            if (bin.version() < 2 || !bin.spec().equals("WhisperSpec")) {
                throw new ModelFormatException(binName + ": a CTranslate2 "
                        + (bin.spec().isEmpty() ? "model without a spec name" : "'" + bin.spec() + "' model")
                        + ", not Whisper");
            }
            if (bin.revision() < 1 || bin.revision() > NEWEST_REVISION) {
                throw new ModelFormatException(binName + ": WhisperSpec revision " + bin.revision()
                        + " is newer than the revisions Dictum reads (1 to " + NEWEST_REVISION + ")");
            }
            WhisperDims dims = Ct2WhisperDims.of(bin, binName);
            TensorTable tensors = TensorTable.checked(binName, dims, Ct2WhisperWeights.canonical(bin, dims, arena,
                    binName));
            Ct2Config config = Ct2Config.read(dir, dims);
            Ct2VocabularyFile.Tokens tokens = Ct2VocabularyFile.read(dir);
            Vocabulary vocabulary = Ct2Vocabularies.of(tokens, dims.nVocab(), config.langIds());
            return new Ct2ModelDirectory(dir.toString(), arena, dims, tensors, vocabulary,
                    generation(config, vocabulary, tokens.file()), config.alignmentHeads());
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /** config.json's lists where given; OpenAI's defaults where absent or where suppress_ids says -1. */
    private static GenerationConfig generation(Ct2Config config, Vocabulary vocabulary, Path vocabularyFile) {
        int[] suppress = config.suppressIds();
        int[] begin = config.suppressIdsBegin();
        // Built even when config.json has both lists: it checks the vocabulary (distinct tokens, every byte).
        BpeTokenizer tokenizer;
        try {
            tokenizer = new BpeTokenizer(vocabulary);
        } catch (IllegalArgumentException e) {
            throw new ModelFormatException(vocabularyFile + ": not a byte-level BPE vocabulary ("
                    + e.getMessage() + ")", e);
        }
        if (suppress == null || java.util.Arrays.stream(suppress).anyMatch(id -> id == -1)) {
            TreeSet<Integer> ids = new TreeSet<>();
            for (int id : SuppressTokens.openAiDefault(tokenizer, vocabulary.specials())) {
                ids.add(id);
            }
            if (suppress != null) {
                for (int id : suppress) {
                    if (id >= 0) {
                        ids.add(id);
                    }
                }
            }
            suppress = ids.stream().mapToInt(Integer::intValue).toArray();
        }
        if (begin == null) {
            begin = SuppressTokens.openAiBeginSuppress(tokenizer, vocabulary.specials());
        }
        return new GenerationConfig(suppress, begin, MAX_INITIAL_TIMESTAMP_INDEX);
    }

    @Override
    public WhisperDims dims() {
        return dims;
    }

    /** config.json's alignment_heads (the converter fills in the last half of the decoder's heads when unknown). */
    public List<AlignmentHead> alignmentHeads() {
        return alignmentHeads;
    }
}
