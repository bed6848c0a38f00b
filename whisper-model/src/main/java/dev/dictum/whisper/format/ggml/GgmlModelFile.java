package dev.dictum.whisper.format.ggml;

import dev.dictum.whisper.format.GenerationConfig;
import dev.dictum.whisper.format.MappedWeightSource;
import dev.dictum.whisper.format.MappedFiles;
import dev.dictum.whisper.format.ModelFormatException;
import dev.dictum.whisper.format.TensorTable;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.tokenizer.BpeTokenizer;
import dev.dictum.whisper.tokenizer.LanguageCodes;
import dev.dictum.whisper.tokenizer.SpecialTokens;
import dev.dictum.whisper.tokenizer.SuppressTokens;
import dev.dictum.whisper.tokenizer.Vocabulary;
import java.lang.foreign.Arena;
import java.nio.file.Path;

/**
 * A whisper.cpp ggml model file (f32, f16, q8_0, q5_0, q5_1 or q4_0 tensors), memory-mapped.
 * Tensors are slices of the mapping at their file offsets, so they are not aligned: read them
 * with unaligned layouts. The file stores only BPE tokens; the special tokens follow from
 * n_vocab as in whisper.cpp, and the suppress lists are computed as OpenAI's tokenizer does.
 */
public final class GgmlModelFile extends MappedWeightSource {
    /** OpenAI's default: the first timestamp may be at most 1.0 s into the window. */
    private static final int MAX_INITIAL_TIMESTAMP_INDEX = 50;

    private final GgmlContents contents;

    private GgmlModelFile(String description, Arena arena, GgmlContents contents, TensorTable tensors,
            Vocabulary vocabulary, GenerationConfig generation) {
        super(description, arena, tensors, vocabulary, generation);
        this.contents = contents;
    }

    /**
     * Maps and checks the whole file: header, vocabulary, every tensor's header and extent, and
     * that the tensors are exactly those of a Whisper model with the header's dimensions.
     *
     * @throws ModelFormatException with a one-line message naming the file
     */
    public static GgmlModelFile open(Path file) {
        String name = file.toString();
        Arena arena = Arena.ofShared();
        try {
            GgmlContents contents = GgmlParser.parse(MappedFiles.map(file, arena), name);
            TensorTable tensors = TensorTable.checked(name, contents.dims(), contents.tensors());
            Vocabulary vocabulary = vocabulary(contents);
            return new GgmlModelFile(name, arena, contents, tensors, vocabulary, generation(vocabulary, name));
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    private static Vocabulary vocabulary(GgmlContents contents) {
        SpecialTokens specials = SpecialTokens.forVocabSize(contents.dims().nVocab());
        // Files may also spell a few special tokens after the BPE ranks; the ids say what they are.
        return new Vocabulary(contents.tokens().subList(0, specials.eot()), specials,
                LanguageCodes.first(specials.languageCount()));
    }

    private static GenerationConfig generation(Vocabulary vocabulary, String name) {
        try {
            BpeTokenizer tokenizer = new BpeTokenizer(vocabulary);
            return new GenerationConfig(SuppressTokens.openAiDefault(tokenizer, vocabulary.specials()),
                    SuppressTokens.openAiBeginSuppress(tokenizer, vocabulary.specials()), MAX_INITIAL_TIMESTAMP_INDEX);
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new ModelFormatException(name + ": the vocabulary is not a byte-level BPE vocabulary ("
                    + e.getMessage() + ")", e);
        }
    }

    @Override
    public WhisperDims dims() {
        return contents.dims();
    }

    /** whisper.cpp's hparams.ftype as stored (e.g. 1 for f16, 2007 for q8_0). */
    public int ftype() {
        return contents.ftype();
    }

    public GgmlMelFilters melFilters() {
        return contents.melFilters();
    }
}
