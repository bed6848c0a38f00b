package dev.dictum.whisper.testutil;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The GPU bundle's fallback (toy-multi's vocab.json) gives the ggml file's text tokens, byte for byte. */
class ToyVocabulariesTest {

    @Test
    void theTokenizerFolderSpellsTheSameTextTokensAsTheGgmlFile() {
        List<byte[]> fromJson = ToyVocabularies.textTokensOf(ToyVocabularies.testdata().resolve("models/toy-multi/vocab.json"));
        List<byte[]> fromGgml = ToyVocabularies.textTokens(51866); // the ggml file is here
        assertThat(fromJson).hasSize(50257).hasSameSizeAs(fromGgml);
        for (int i = 0; i < fromGgml.size(); i++) {
            assertThat(fromJson.get(i)).as("token %d", i).isEqualTo(fromGgml.get(i));
        }
    }
}
