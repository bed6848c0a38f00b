package dev.dictum.whisper.testutil;

import dev.dictum.whisper.format.ggml.GgmlModelFile;
import dev.dictum.whisper.format.ggml.GgmlMelFilters;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dictum.whisper.tokenizer.ByteLevelAlphabet;
import dev.dictum.whisper.tokenizer.SpecialTokens;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Real BPE vocabularies and mel filters for the test writers, copied from the toy models in
 * testdata: toy-en's GPT-2 tokens for 51864, toy-multi's multilingual tokens for 51865 and 51866
 * (both have the same 50257 text tokens), read once per JVM.
 *
 * <p>Where toy-multi's ggml file is absent but its Hugging Face tokenizer files are there (the GPU
 * bundle carries only those: the 25 MB model would not fit a device call), the text tokens come from
 * its vocab.json (the same 50257 tokens, spelled in the byte-level alphabet) and the 128-mel filters
 * are zeros: enough for tests that measure memory or compare backends on the same file, not for
 * ones that need real speech features.
 */
public final class ToyVocabularies {
    private record Source(List<byte[]> textTokens, GgmlMelFilters filters) {
    }

    private static final Map<Boolean, Source> CACHE = new ConcurrentHashMap<>();

    private ToyVocabularies() {
    }

    public static Path testdata() {
        return TestData.root();
    }

    public static Path toyEnGgml() {
        return testdata().resolve("models/toy-en/ggml-toy-en.bin");
    }

    public static Path toyMultiGgml() {
        return testdata().resolve("models/toy-multi/ggml-toy-multi-q8_0.bin");
    }

    /** The text tokens (ids below eot) of a model with this vocabulary size. */
    public static List<byte[]> textTokens(int nVocab) {
        List<byte[]> all = source(nVocab >= 51865).textTokens();
        int eot = SpecialTokens.forVocabSize(nVocab).eot();
        if (all.size() != eot) {
            throw new IllegalStateException("toy vocabulary has " + all.size() + " text tokens, need " + eot);
        }
        return all;
    }

    /** The real mel filters for 80 or 128 mels; zeros of Whisper's 201 FFT bins otherwise. */
    public static GgmlMelFilters melFilters(int nMels) {
        GgmlMelFilters real = nMels == 80 ? source(false).filters() : nMels == 128 ? source(true).filters() : null;
        return real != null ? real : new GgmlMelFilters(nMels, 201, new float[nMels * 201]);
    }

    private static Source source(boolean multilingual) {
        return CACHE.computeIfAbsent(multilingual, m -> {
            Path vocabJson = testdata().resolve("models/toy-multi/vocab.json");
            if (m && !Files.exists(toyMultiGgml()) && Files.exists(vocabJson)) {
                return fromVocabJson(vocabJson);
            }
            try (GgmlModelFile f = GgmlModelFile.open(m ? toyMultiGgml() : toyEnGgml())) {
                List<byte[]> tokens = new ArrayList<>();
                for (int i = 0; i < f.vocabulary().textTokenCount(); i++) {
                    tokens.add(f.vocabulary().bytes(i).clone());
                }
                return new Source(List.copyOf(tokens), f.melFilters());
            }
        });
    }

    private static Source fromVocabJson(Path vocabJson) {
        return new Source(textTokensOf(vocabJson), new GgmlMelFilters(128, 201, new float[128 * 201]));
    }

    /** The text tokens (ids below eot) of a Hugging Face vocab.json, in id order. */
    static List<byte[]> textTokensOf(Path vocabJson) {
        try {
            JsonNode vocab = new ObjectMapper().readTree(vocabJson.toFile());
            int eot = SpecialTokens.forVocabSize(51865).eot();
            byte[][] byId = new byte[eot][];
            vocab.fields().forEachRemaining(e -> {
                int id = e.getValue().asInt();
                if (id < eot) {
                    byId[id] = ByteLevelAlphabet.toBytes(e.getKey());
                }
            });
            for (int i = 0; i < eot; i++) {
                if (byId[i] == null) {
                    throw new IllegalStateException(vocabJson + " has no token " + i);
                }
            }
            return List.of(byId);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
