package dev.dictum.whisper.decode;

import static dev.dictum.whisper.decode.ToyCodec.ALPHA;
import static dev.dictum.whisper.decode.ToyCodec.BRAVO;
import static dev.dictum.whisper.decode.ToyCodec.CHARLIE;
import static dev.dictum.whisper.decode.ToyCodec.DELTA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.dictum.whisper.tokenizer.SpecialTokens;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Beam search on crafted probability trees (A = alpha, B = bravo, C = charlie, D = delta). The
 * expected traces are worked out by hand in the comments, following OpenAI's BeamSearchDecoder.
 */
class BeamSearchTest {
    private static final int EOT = SpecialTokens.forVocabSize(51864).eot();
    private static final int A = ALPHA;
    private static final int B = BRAVO;
    private static final int C = CHARLIE;
    private static final int D = DELTA;

    /**
     * Greedy: A (.5), D (.4), eot (.5): [A, D] with ln .1. Beam 2:
     * step 1, both beams identical: A ln .5, B ln .4 kept, both from beam 1 (the later duplicate wins): reorder [1, 1];
     * step 2: B eot ln .396 finishes; A D ln .2 and A C ln .16 live, both from beam 0: reorder [0, 0];
     * step 3: A D eot ln .1 and A C eot ln .096 finish, A C D ln .064 and A D C ln .06 live: reorder [1, 0];
     * the first finisher fills the list (2 = beam size): done. [B] -0.926 / 1 beats [A, D] -2.303 / 2.
     */
    static Scripts.Tree tree1() {
        return new Scripts.Tree(1)
                .on(List.of(), Map.of(A, 0.5, B, 0.4, C, 0.1))
                .on(List.of(A), Map.of(D, 0.4, C, 0.32, EOT, 0.28))
                .on(List.of(B), Map.of(EOT, 0.99, D, 0.01))
                .on(List.of(A, D), Map.of(EOT, 0.5, C, 0.3, B, 0.2))
                .on(List.of(A, C), Map.of(EOT, 0.6, D, 0.4));
    }

    /**
     * Like tree 1 but B is less sure of its end. Beam 2:
     * step 2: B eot ln .22 finishes; A D ln .2 and B D ln .18 live, from beams 0 and 1: no reorder;
     * step 3: B D C ln .126 lives, A D eot ln .1 finishes (list full), A D C ln .06 lives: reorder [1, 0].
     * Candidates [B] ln .22 and [A, D] ln .1.
     */
    static Scripts.Tree tree2() {
        return new Scripts.Tree(1)
                .on(List.of(), Map.of(A, 0.5, B, 0.4, C, 0.1))
                .on(List.of(A), Map.of(D, 0.4, C, 0.32, EOT, 0.28))
                .on(List.of(B), Map.of(EOT, 0.55, D, 0.45))
                .on(List.of(A, D), Map.of(EOT, 0.5, C, 0.3, B, 0.2))
                .on(List.of(B, D), Map.of(C, 0.7, EOT, 0.3));
    }

    private static FakeWhisper model;

    private static DecodingResult run(Scripts.Tree tree, DecodingOptions options) {
        model = FakeWhisper.english(tree);
        return new DecodingTask(model, new ToyCodec(EOT), options)
                .run(model.encode(new float[] {0}), model.newDecoder(options.groupSize()), null);
    }

    private static DecodingOptions beam(int size) {
        return DecodingOptions.defaults().withWithoutTimestamps(true).withBeamSize(size);
    }

    @Test
    void greedyAndBeamSearchDisagreeOnTree1() {
        DecodingResult greedy = run(tree1(), DecodingOptions.defaults().withWithoutTimestamps(true));
        assertThat(greedy.tokens()).containsExactly(A, D);
        assertThat(greedy.sumLogprob()).isCloseTo(Math.log(0.1), within(1e-6));

        DecodingResult beam = run(tree1(), beam(2));
        assertThat(beam.tokens()).containsExactly(B);
        assertThat(beam.sumLogprob()).isCloseTo(Math.log(0.4 * 0.99), within(1e-6));
        assertThat(beam.avgLogprob()).isCloseTo(Math.log(0.4 * 0.99) / 2, within(1e-6));
        assertThat(beam.tokenProbabilities()[0]).isCloseTo(0.4f, within(1e-6f));
        assertThat(model.reorders).containsExactly(new int[] {1, 1}, new int[] {0, 0}, new int[] {1, 0});
        assertThat(model.feeds).hasSize(4);
        assertThat(model.feeds.get(2)).isDeepEqualTo(new int[][] {{A}, {B}});
        assertThat(model.feeds.get(3)).isDeepEqualTo(new int[][] {{D}, {C}});
        assertThat(model.resetBatches).containsExactly(2);
    }

    /**
     * Patience 2 collects 4 hypotheses: step 3 adds [A, D] and [A, C]; step 4 finishes A C D (ln .064)
     * and A D C (ln .06), [A, C, D] fills the list. -2.749 / 3 = -0.916 now beats [B] at -0.926.
     */
    @Test
    void patienceCollectsMoreHypothesesAndChangesTheWinner() {
        DecodingResult r = run(tree1(), beam(2).withPatience(2.0));
        assertThat(r.tokens()).containsExactly(A, C, D);
        assertThat(r.sumLogprob()).isCloseTo(Math.log(0.5 * 0.32 * 0.4), within(1e-6));
        assertThat(model.feeds).hasSize(5);
    }

    @Test
    void lengthPenaltyRanksAsGoogleNmt() {
        // no penalty: [B] -1.514 / 1 against [A, D] -2.303 / 2 = -1.151
        DecodingResult plain = run(tree2(), beam(2));
        assertThat(plain.tokens()).containsExactly(A, D);
        assertThat(model.reorders).containsExactly(new int[] {1, 1}, new int[] {1, 0});

        // alpha 1: [B] -1.514 / ((5 + 1) / 6) against [A, D] -2.303 / ((5 + 2) / 6) = -1.974
        DecodingResult alpha1 = run(tree2(), beam(2).withLengthPenalty(1.0));
        assertThat(alpha1.tokens()).containsExactly(B);
        assertThat(alpha1.sumLogprob()).isCloseTo(Math.log(0.4 * 0.55), within(1e-6));

        MaximumLikelihoodRanker ranker = new MaximumLikelihoodRanker(1.0);
        double b = ranker.score(new Candidate(new int[] {B}, new float[1], Math.log(0.22)));
        double ad = ranker.score(new Candidate(new int[] {A, D}, new float[2], Math.log(0.1)));
        assertThat(b).isCloseTo(Math.log(0.22), within(1e-12));
        assertThat(ad).isCloseTo(Math.log(0.1) * 6 / 7, within(1e-12));
    }

    @Test
    void unfinishedBeamsFillUpWhenSampleLenRunsOut() {
        // after one step no hypothesis has finished: the two live beams A (ln .5) and B (ln .4) are the candidates
        DecodingResult r = run(tree1(), beam(2).withSampleLen(1));
        assertThat(r.tokens()).containsExactly(A);
        assertThat(r.sumLogprob()).isCloseTo(Math.log(0.5), within(1e-6));
    }
}
