package dev.dictum.whisper.decode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.whisper.tokenizer.SpecialTokens;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SuppressFiltersTest {
    private static final SpecialTokens SP = SpecialTokens.forVocabSize(51864);

    static int[] masked(float[] logits) {
        return IntStream.range(0, logits.length).filter(i -> logits[i] == Float.NEGATIVE_INFINITY).toArray();
    }

    @Test
    void suppressBlankMasksSpaceAndEotAtTheFirstSampledStepOnly() {
        SuppressBlankFilter f = new SuppressBlankFilter(new int[] {220, SP.eot()}, 2);
        int[] tokens = {SP.sot(), SP.noTimestamps(), 500};

        float[] first = new float[SP.vocabSize()];
        f.apply(first, tokens, 2);
        assertThat(masked(first)).containsExactly(220, SP.eot());

        float[] second = new float[SP.vocabSize()];
        f.apply(second, tokens, 3);
        assertThat(masked(second)).isEmpty();
    }

    @Test
    void suppressTokensResolvesMinusOneToTheNonSpeechSetPlusTheSpecials() {
        int[] ids = SuppressTokensFilter.resolve(new int[] {-1, 7, 3}, new int[] {3, 5}, SP);
        assertThat(ids).containsExactly(3, 5, 7, SP.sot(), SP.translate(), SP.transcribe(), SP.startOfLm(),
                SP.startOfPrev(), SP.noSpeech());
    }

    @Test
    void explicitListWithoutMinusOneKeepsOnlyItsIdsAndTheSpecials() {
        int[] ids = SuppressTokensFilter.resolve(new int[] {9}, new int[] {3, 5}, SP);
        assertThat(ids).containsExactly(9, SP.sot(), SP.translate(), SP.transcribe(), SP.startOfLm(),
                SP.startOfPrev(), SP.noSpeech());
    }

    @Test
    void suppressTokensMasksEveryStep() {
        SuppressTokensFilter f = new SuppressTokensFilter(new int[] {4, 8});
        float[] logits = new float[SP.vocabSize()];
        f.apply(logits, new int[] {SP.sot(), 1, 2, 3}, 4);
        assertThat(masked(logits)).containsExactly(4, 8);
    }
}
