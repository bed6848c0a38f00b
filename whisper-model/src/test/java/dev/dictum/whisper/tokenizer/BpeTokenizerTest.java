package dev.dictum.whisper.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class BpeTokenizerTest {
    private static BpeTokenizer english;
    private static BpeTokenizer multilingual;
    private static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void load() {
        english = TiktokenVocabularies.english();
        multilingual = TiktokenVocabularies.multilingual();
    }

    /** The oracle's greedy ids with the prompt and the final eot cut off. */
    private static int[] textIds(JsonNode run) {
        int[] all = Ids.ints(run.get("greedy_token_ids"));
        int prompt = run.get("prompt").size();
        return Arrays.copyOfRange(all, prompt, all.length - 1);
    }

    @Test
    void encodesTheEnglishOracleSentence() throws IOException {
        JsonNode sample = JSON.readTree(TiktokenVocabularies.testdata().resolve("data/toy-en-oracle/index.json").toFile())
                .get("sample_01.wav");
        int[] expected = textIds(sample);
        assertThat(expected).startsWith(5740, 284, 2116);

        assertThat(english.encode(" Note to self, send the final version to Sophie right now.")).containsExactly(
                expected);
        assertThat(english.decode(expected)).isEqualTo(" Note to self, send the final version to Sophie right now.");
    }

    @Test
    void germanOracleIdsDecodeToTranscriptAndTranslation() throws IOException {
        JsonNode sample = JSON.readTree(
                TiktokenVocabularies.testdata().resolve("data/toy-multi-oracle/index.json").toFile()).get("sample_de_1.wav");
        int[] transcribe = textIds(sample.get("transcribe"));
        int[] translate = textIds(sample.get("translate"));

        assertThat(multilingual.decode(transcribe)).isEqualTo(" Raum 340 ist am Dienstag um 10 Uhr frei.");
        assertThat(multilingual.decode(translate)).isEqualTo(" Room 340 is free on Tuesday at 10 am.");
        assertThat(multilingual.encode(" Raum 340 ist am Dienstag um 10 Uhr frei.")).containsExactly(transcribe);
        assertThat(multilingual.encode(" Room 340 is free on Tuesday at 10 am.")).containsExactly(translate);
        // Whole greedy sequences: prompt, specials and eot are skipped by decode.
        assertThat(multilingual.decode(Ids.ints(sample.get("transcribe").get("greedy_token_ids"))))
                .isEqualTo(" Raum 340 ist am Dienstag um 10 Uhr frei.");
    }

    static Stream<String> multilingualSentences() throws IOException {
        List<String> lines = Files.readAllLines(
                TiktokenVocabularies.testdata().resolve("data/toy-multi-samples/transcripts.tsv"), StandardCharsets.UTF_8);
        return lines.stream().skip(1).map(l -> l.split("\t", -1))
                .flatMap(f -> Stream.of(f[2], f[3])).filter(s -> !s.isEmpty());
    }

    @ParameterizedTest
    @MethodSource("multilingualSentences")
    void multilingualSentencesRoundTrip(String sentence) {
        for (String text : List.of(sentence, " " + sentence)) {
            int[] ids = multilingual.encode(text);
            assertThat(IntStream.of(ids).allMatch(id -> id >= 0 && id < multilingual.specials().eot())).isTrue();
            assertThat(multilingual.decode(ids)).isEqualTo(text);
        }
    }

    @Test
    void accentedWordsUseMultiTokenCharacters() {
        // "Jürgen" and "pommes" etc.: every accented sentence must survive a split inside a character.
        String text = " Achète du sucre, ¿qué? Größe 🎵 日本語";
        int[] ids = multilingual.encode(text);
        assertThat(multilingual.decode(ids)).isEqualTo(text);
        // A prefix that ends inside a multi-byte character decodes with a replacement character, not an exception.
        int[] emoji = multilingual.encode("𝄞"); // U+1D11E, four UTF-8 bytes, no single token
        assertThat(emoji.length).isGreaterThan(1);
        assertThat(multilingual.decode(Arrays.copyOf(emoji, 1))).contains("\uFFFD");
    }

    @Test
    void englishTokenizerHandlesWhitespaceAndContractions() {
        for (String text : List.of("", " ", "  two  spaces  ", "don't we'll I'm", "tab\tnew\nline\r\n", "\u00a0nbsp",
                "x\u3000y", "12345678 3.14", "(hello) [world] <|endoftext|>")) {
            assertThat(english.decode(english.encode(text))).as(text).isEqualTo(text);
        }
        assertThat(english.encode(" ")).containsExactly(220);
        assertThat(english.encode("")).isEmpty();
    }

    @Test
    void decodeSkipsSpecialAndTimestampTokens() {
        SpecialTokens s = english.specials();
        int hello = english.encode(" hello")[0];
        assertThat(english.decode(new int[] {s.sot(), s.noTimestamps(), hello, s.timestampBegin() + 5, s.eot()}))
                .isEqualTo(" hello");
        assertThatThrownBy(() -> english.decode(new int[] {-1})).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void tokenBytesAreTheRankBytes() {
        assertThat(english.tokenBytes(220)).containsExactly(' ');
        assertThat(new String(english.tokenBytes(5740), StandardCharsets.UTF_8)).isEqualTo(" Note");
        assertThat(multilingual.tokenBytes(50256)).isEmpty(); // the empty rank of multilingual.tiktoken
        assertThatThrownBy(() -> english.tokenBytes(english.specials().eot()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everySingleByteIsAToken() {
        IntStream.range(0, 256).forEach(b -> assertThat(english.encode(
                new String(new byte[] {(byte) b}, StandardCharsets.ISO_8859_1))).isNotEmpty());
    }

    /** Small JSON helper kept local to the test. */
    private static final class Ids {
        static int[] ints(JsonNode array) {
            int[] out = new int[array.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = array.get(i).intValue();
            }
            return out;
        }
    }
}
