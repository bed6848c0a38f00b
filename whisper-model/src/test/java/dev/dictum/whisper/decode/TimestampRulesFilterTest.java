package dev.dictum.whisper.decode;

import static dev.dictum.whisper.decode.SuppressFiltersTest.masked;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.whisper.tokenizer.SpecialTokens;
import java.util.Arrays;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Each rule of ApplyTimestampRules on crafted sequences, asserting the exact set of forbidden ids. */
class TimestampRulesFilterTest {
    private static final SpecialTokens SP = SpecialTokens.forVocabSize(51864);
    private static final int TB = SP.timestampBegin();
    private static final int V = SP.vocabSize();
    private static final int SAMPLE_BEGIN = 1; // initial tokens: [sot]
    private static final int WORD = 500;

    private static int ts(int step) {
        return TB + step;
    }

    /** Logits where text clearly beats the timestamps, so the logsumexp rule stays out of the way. */
    private static float[] textFavoured() {
        float[] l = new float[V];
        Arrays.fill(l, -20f);
        l[WORD] = 10f;
        return l;
    }

    private static float[] apply(float[] logits, int... sampled) {
        int[] tokens = new int[1 + sampled.length];
        tokens[0] = SP.sot();
        System.arraycopy(sampled, 0, tokens, 1, sampled.length);
        new TimestampRulesFilter(SP, SAMPLE_BEGIN, 50).apply(logits, tokens, tokens.length);
        return logits;
    }

    /** "a-b,c" notation of a sorted id set, so that a failure prints a line rather than 50,000 ids. */
    private static String ranges(int[] ids) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < ids.length; i++) {
            int j = i;
            while (j + 1 < ids.length && ids[j + 1] == ids[j] + 1) {
                j++;
            }
            sb.append(sb.isEmpty() ? "" : ",").append(ids[i]).append(i == j ? "" : "-" + ids[j]);
            i = j;
        }
        return sb.toString();
    }

    private static int[] range(int from, int to) {
        return IntStream.range(from, to).toArray();
    }

    private static int[] union(int[]... parts) {
        return Arrays.stream(parts).flatMapToInt(Arrays::stream).sorted().distinct().toArray();
    }

    @Test
    void firstStepMustBeATimestampNoLaterThanTheMaximumInitialOne() {
        float[] l = apply(textFavoured());
        // text, eot, specials and notimestamps masked; timestamps above index 50 masked
        assertThat(ranges(masked(l))).isEqualTo(ranges(union(range(0, TB), range(ts(51), V))));
    }

    @Test
    void noMaximumInitialTimestampLeavesAllTimestampsOpen() {
        float[] l = textFavoured();
        new TimestampRulesFilter(SP, SAMPLE_BEGIN, null).apply(l, new int[] {SP.sot()}, 1);
        assertThat(ranges(masked(l))).isEqualTo(ranges(range(0, TB)));
    }

    @Test
    void afterTheOpeningTimestampTextMustFollow() {
        // [ts5]: last is a timestamp and (fewer than 2 sampled) the penultimate counts as one
        float[] l = apply(textFavoured(), ts(5));
        assertThat(ranges(masked(l))).isEqualTo(ranges(union(new int[] {SP.noTimestamps()}, range(TB, V))));
    }

    @Test
    void afterTextTimestampsMustIncreaseStrictly() {
        float[] l = apply(textFavoured(), ts(5), WORD);
        assertThat(ranges(masked(l))).isEqualTo(ranges(union(new int[] {SP.noTimestamps()}, range(TB, ts(6)))));
    }

    @Test
    void afterAClosingTimestampOnlyATimestampOrEotMayFollowAndTheSameTimeIsAllowed() {
        float[] favoured = textFavoured();
        // eot beats the summed timestamp mass (-20 + ln 1492), else the logsumexp rule would mask it too
        favoured[SP.eot()] = 10f;
        float[] l = apply(favoured, ts(5), WORD, ts(9));
        // text masked (not eot and the specials), timestamps below 9 masked: ts(9) may open the next segment
        assertThat(ranges(masked(l))).isEqualTo(ranges(union(range(0, SP.eot()), new int[] {SP.noTimestamps()},
                range(TB, ts(9)))));
    }

    @Test
    void afterAClosingTimestampTheTimestampMassMasksEotAndSpecialsWhenTheyAreWeaker() {
        float[] l = apply(textFavoured(), ts(5), WORD, ts(9));
        assertThat(ranges(masked(l))).isEqualTo(ranges(range(0, ts(9))));
    }

    @Test
    void afterAPairTextMustFollow() {
        float[] l = apply(textFavoured(), ts(5), WORD, ts(9), ts(9));
        assertThat(ranges(masked(l))).isEqualTo(ranges(union(new int[] {SP.noTimestamps()}, range(TB, V))));
    }

    @Test
    void timestampMassAboveTheBestTextTokenForcesATimestamp() {
        // every timestamp is below the best text token, but together three of them outweigh it:
        // logsumexp = -0.5 + ln 3 = 0.599 > 0
        float[] l = new float[V];
        Arrays.fill(l, Float.NEGATIVE_INFINITY);
        l[WORD] = 0f;
        l[WORD + 1] = -1f;
        l[ts(20)] = -0.5f;
        l[ts(21)] = -0.5f;
        l[ts(22)] = -0.5f;
        apply(l, ts(5), WORD);
        assertThat(l[WORD]).isEqualTo(Float.NEGATIVE_INFINITY);
        assertThat(l[WORD + 1]).isEqualTo(Float.NEGATIVE_INFINITY);
        assertThat(l[ts(20)]).isEqualTo(-0.5f);
        assertThat(LogitMath.argmax(l)).isEqualTo(ts(20));
    }

    @Test
    void timestampMassBelowTheBestTextTokenLeavesTextAlone() {
        // logsumexp = -1 + ln 2 = -0.307 < 0
        float[] l = new float[V];
        Arrays.fill(l, Float.NEGATIVE_INFINITY);
        l[WORD] = 0f;
        l[ts(20)] = -1f;
        l[ts(21)] = -1f;
        apply(l, ts(5), WORD);
        assertThat(l[WORD]).isEqualTo(0f);
        assertThat(l[ts(20)]).isEqualTo(-1f);
    }

    @Test
    void theTimestampMassIsComputedAfterTheEarlierMasks() {
        // ts(3) would tip the balance, but it is below the last timestamp (5) and masked first
        float[] l = new float[V];
        Arrays.fill(l, Float.NEGATIVE_INFINITY);
        l[WORD] = 0f;
        l[ts(3)] = 5f;
        l[ts(20)] = -1f;
        apply(l, ts(5), WORD);
        assertThat(l[WORD]).isEqualTo(0f);
    }

    @Test
    void maxInitialTimestampIndexRoundsLikePython() {
        assertThat(TimestampRulesFilter.maxInitialTimestampIndex(1.0, 1500)).isEqualTo(50);
        assertThat(TimestampRulesFilter.maxInitialTimestampIndex(0.0, 1500)).isNull();
        assertThat(TimestampRulesFilter.maxInitialTimestampIndex(null, 1500)).isNull();
        assertThat(TimestampRulesFilter.maxInitialTimestampIndex(0.05, 1500)).isEqualTo(2); // round(2.5) == 2
    }
}
