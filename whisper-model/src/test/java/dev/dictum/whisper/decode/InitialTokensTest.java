package dev.dictum.whisper.decode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.whisper.tokenizer.SpecialTokens;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class InitialTokensTest {
    private static final SpecialTokens EN = SpecialTokens.forVocabSize(51864);
    private static final SpecialTokens MULTI = SpecialTokens.forVocabSize(51866);

    @Test
    void englishOnlySotSequenceHasNoLanguageOrTask() {
        InitialTokens t = InitialTokens.build(EN, -1, Task.TRANSLATE, true, null, null, 448, 224);
        assertThat(t.tokens()).containsExactly(50257, 50362);
        assertThat(t.sotIndex()).isZero();
        assertThat(t.languageIndex()).isEqualTo(-1);
        assertThat(t.sampleBegin()).isEqualTo(2);
    }

    @Test
    void multilingualSotSequenceIsSotLanguageTaskAndOptionallyNoTimestamps() {
        InitialTokens t = InitialTokens.build(MULTI, 50261, Task.TRANSLATE, false, new int[0], new int[0], 448, 224);
        assertThat(t.tokens()).containsExactly(50258, 50261, 50359);
        InitialTokens nt = InitialTokens.build(MULTI, 50261, Task.TRANSCRIBE, true, null, null, 448, 224);
        assertThat(nt.tokens()).containsExactly(50258, 50261, 50360, 50364);
        assertThat(nt.languageIndex()).isEqualTo(1);
    }

    @Test
    void promptKeepsItsLast223TokensAfterStartOfPrev() {
        int[] prompt = IntStream.range(0, 300).toArray();
        InitialTokens t = InitialTokens.build(EN, -1, Task.TRANSCRIBE, true, prompt, null, 448, 224);
        int[] tokens = t.tokens();
        assertThat(tokens).hasSize(1 + 223 + 2);
        assertThat(tokens[0]).isEqualTo(EN.startOfPrev());
        assertThat(tokens[1]).isEqualTo(77);
        assertThat(tokens[223]).isEqualTo(299);
        assertThat(t.sotIndex()).isEqualTo(224);
        assertThat(tokens[224]).isEqualTo(EN.sot());
        assertThat(t.sampleBegin()).isEqualTo(226);
    }

    @Test
    void prefixFollowsTheSotSequenceAndPythonsMinusZeroSliceKeepsAllOfIt() {
        int[] prefix = {10, 11, 12};
        // default sample_len = 224 = n_ctx / 2: prefix[-0:] is the whole prefix
        InitialTokens all = InitialTokens.build(EN, -1, Task.TRANSCRIBE, true, new int[] {5}, prefix, 448, 224);
        assertThat(all.tokens()).containsExactly(EN.startOfPrev(), 5, EN.sot(), EN.noTimestamps(), 10, 11, 12);
        assertThat(all.sotIndex()).isEqualTo(2);
        // sample_len 222: at most 2 prefix tokens, the last ones
        InitialTokens two = InitialTokens.build(EN, -1, Task.TRANSCRIBE, false, null, prefix, 448, 222);
        assertThat(two.tokens()).containsExactly(EN.sot(), 11, 12);
    }

    @Test
    void pythonNegativeTailDropsFromTheFront() {
        assertThat(PythonSlices.fromEnd(new int[] {1, 2, 3, 4}, -1)).containsExactly(2, 3, 4);
        assertThat(PythonSlices.fromEnd(new int[] {1, 2, 3, 4}, 0)).containsExactly(1, 2, 3, 4);
        assertThat(PythonSlices.fromEnd(new int[] {1, 2, 3, 4}, 9)).containsExactly(1, 2, 3, 4);
        assertThat(PythonSlices.fromEnd(new int[] {1, 2, 3, 4}, -9)).isEmpty();
    }
}
