package dev.dictum.whisper.decode;

import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * OpenAI's {@code GreedyDecoder}: argmax at temperature 0, otherwise one categorical sample per row
 * (best_of rows are independent samples). The log-probability added to a row's sum is that of the
 * chosen token under the filtered logits at temperature 1. A row that has produced eot keeps
 * producing eot at no cost; decoding is complete when every row has.
 */
final class GreedyDecoder implements TokenDecoder {
    private final double temperature;
    private final int eot;
    private final int sampleBegin;
    private final RandomGenerator rng;
    private final int[] next;
    private final float[] nextLogprobs;

    GreedyDecoder(double temperature, int eot, int sampleBegin, int batch, RandomGenerator rng) {
        if (temperature > 0 && rng == null) {
            throw new IllegalArgumentException("sampling needs a random generator");
        }
        this.temperature = temperature;
        this.eot = eot;
        this.sampleBegin = sampleBegin;
        this.rng = rng;
        this.next = new int[batch];
        this.nextLogprobs = new float[batch];
    }

    @Override
    public boolean update(SequenceBatch batch, float[][] logits) {
        boolean completed = true;
        for (int r = 0; r < batch.size(); r++) {
            if (batch.last(r) == eot) {
                next[r] = eot;
                nextLogprobs[r] = 0;
                continue;
            }
            float[] row = logits[r];
            int token = temperature == 0 ? LogitMath.argmax(row) : TokenSampler.sample(row, temperature, rng);
            double logprob = row[token] - LogitMath.logSumExp(row, 0, row.length);
            batch.sumLogprobs[r] += logprob;
            next[r] = token;
            nextLogprobs[r] = (float) logprob;
            completed &= token == eot;
        }
        batch.append(next, nextLogprobs);
        return completed;
    }

    /** Every row is a candidate; rows cut off by sample_len end where they are (OpenAI pads an eot). */
    @Override
    public List<Candidate> finish(SequenceBatch batch) {
        List<Candidate> out = new ArrayList<>(batch.size());
        for (int r = 0; r < batch.size(); r++) {
            out.add(Candidate.slice(batch.tokens[r], batch.logprobs[r], batch.length(), sampleBegin, eot,
                    batch.sumLogprobs[r]));
        }
        return out;
    }
}
