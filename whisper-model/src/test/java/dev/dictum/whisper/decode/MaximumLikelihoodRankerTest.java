package dev.dictum.whisper.decode;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class MaximumLikelihoodRankerTest {
    private static Candidate c(int length, double sum) {
        return new Candidate(new int[length], new float[length], sum);
    }

    @Test
    void lengthNormalisationAndGoogleNmtPenaltyRankDifferently() {
        List<Candidate> cs = List.of(c(1, -1.5), c(4, -4.0));
        // no penalty: -1.5 / 1 = -1.5 against -4.0 / 4 = -1.0
        assertThat(new MaximumLikelihoodRanker(null).best(cs)).isEqualTo(1);
        // alpha 1: -1.5 / 1 = -1.5 against -4.0 / (9 / 6) = -2.667
        assertThat(new MaximumLikelihoodRanker(1.0).best(cs)).isZero();
        // alpha 0: plain sums
        assertThat(new MaximumLikelihoodRanker(0.0).best(cs)).isZero();
        // alpha 0.5: -1.5 against -4 / sqrt(1.5) = -3.266
        assertThat(new MaximumLikelihoodRanker(0.5).score(cs.get(1))).isEqualTo(-4.0 / Math.sqrt(1.5));
    }

    @Test
    void tiesGoToTheFirst() {
        assertThat(new MaximumLikelihoodRanker(null).best(List.of(c(2, -2), c(1, -1), c(4, -4)))).isZero();
    }
}
