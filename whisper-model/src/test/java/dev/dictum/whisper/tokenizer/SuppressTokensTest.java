package dev.dictum.whisper.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class SuppressTokensTest {
    private static int[] generationList(String model, String field) throws IOException {
        JsonNode g = new ObjectMapper().readTree(
                TiktokenVocabularies.testdata().resolve("models/" + model + "/generation_config.json").toFile());
        JsonNode a = g.get(field);
        int[] out = new int[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = a.get(i).intValue();
        }
        return out;
    }

    @Test
    void englishDefaultEqualsTheToyModelsGenerationConfig() throws IOException {
        BpeTokenizer t = TiktokenVocabularies.english();
        int[] expected = generationList("toy-en", "suppress_tokens");
        assertThat(expected).hasSize(90);
        assertThat(SuppressTokens.openAiDefault(t, t.specials())).containsExactly(expected);
        assertThat(SuppressTokens.openAiBeginSuppress(t, t.specials()))
                .containsExactly(generationList("toy-en", "begin_suppress_tokens"));
    }

    @Test
    void multilingualDefaultEqualsTheToyModelsGenerationConfig() throws IOException {
        BpeTokenizer t = TiktokenVocabularies.multilingual();
        int[] expected = generationList("toy-multi", "suppress_tokens");
        assertThat(expected).hasSize(88);
        assertThat(SuppressTokens.openAiDefault(t, t.specials())).containsExactly(expected);
        assertThat(SuppressTokens.openAiBeginSuppress(t, t.specials())).containsExactly(220, 50257);
    }

    @Test
    void ninetyNineLanguageLayoutMovesOnlyTheSpecials() {
        BpeTokenizer t = TiktokenVocabularies.tokenizer("multilingual.tiktoken", 51865);
        int[] ids = SuppressTokens.openAiDefault(t, t.specials());
        // large-v2 ids: sot 50258, translate 50358 .. nospeech 50362.
        assertThat(ids).hasSize(88).endsWith(50258, 50358, 50359, 50360, 50361, 50362);
    }
}
