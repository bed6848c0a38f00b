package dev.dictum.whisper.decode;

import java.util.List;

/**
 * OpenAI's {@code MaximumLikelihoodRanker}: the candidate with the highest
 * {@code sum_logprob / penalty} wins, where penalty is the length (number of sampled tokens,
 * without eot) or, with a length penalty alpha, Google NMT's {@code ((5 + length) / 6) ^ alpha}.
 * Ties go to the first candidate (np.argmax).
 */
final class MaximumLikelihoodRanker {
    private final Double lengthPenalty;

    MaximumLikelihoodRanker(Double lengthPenalty) {
        this.lengthPenalty = lengthPenalty;
    }

    double score(Candidate c) {
        int length = c.tokens().length;
        double penalty = lengthPenalty == null ? length : Math.pow((5.0 + length) / 6.0, lengthPenalty);
        double score = c.sumLogprob() / penalty;
        // OpenAI divides by a length of 0 (Python raises); rank such a candidate last instead.
        return Double.isNaN(score) ? Double.NEGATIVE_INFINITY : score;
    }

    int best(List<Candidate> candidates) {
        int best = 0;
        double bestScore = score(candidates.get(0));
        for (int i = 1; i < candidates.size(); i++) {
            double s = score(candidates.get(i));
            if (s > bestScore) {
                best = i;
                bestScore = s;
            }
        }
        return best;
    }
}
