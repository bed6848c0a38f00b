package dev.dictum.whisper.tokenizer;

import dev.dictum.whisper.testutil.TestData;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The toy models' vocabularies built straight from OpenAI's tiktoken rank files in testdata, with
 * no Hugging Face file involved, so that tokenizer tests do not depend on the HF reader.
 */
final class TiktokenVocabularies {
    private TiktokenVocabularies() {
    }

    static Path testdata() {
        return TestData.root();
    }

    /** toy-en: gpt2.tiktoken, 51864 tokens. */
    static BpeTokenizer english() {
        return tokenizer("gpt2.tiktoken", 51864);
    }

    /** toy-multi: multilingual.tiktoken, 51866 tokens (large-v3 layout). */
    static BpeTokenizer multilingual() {
        return tokenizer("multilingual.tiktoken", 51866);
    }

    static BpeTokenizer tokenizer(String rankFile, int nVocab) {
        SpecialTokens s = SpecialTokens.forVocabSize(nVocab);
        return new BpeTokenizer(new Vocabulary(ranks(testdata().resolve("data/whisper-assets/" + rankFile)), s,
                LanguageCodes.first(s.languageCount())));
    }

    /** A tiktoken file: one "base64-bytes rank" a line, ranks 0, 1, 2, ... in order. */
    static List<byte[]> ranks(Path file) {
        try {
            List<byte[]> out = new ArrayList<>();
            for (String line : Files.readAllLines(file)) {
                if (line.isBlank()) {
                    continue;
                }
                String[] parts = line.split(" ");
                if (Integer.parseInt(parts[1]) != out.size()) {
                    throw new IllegalStateException(file + ": ranks out of order at " + line);
                }
                // Padding is optional for the decoder; stripping it also handles the empty rank, spelled "=".
                out.add(Base64.getDecoder().decode(parts[0].replace("=", "")));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
