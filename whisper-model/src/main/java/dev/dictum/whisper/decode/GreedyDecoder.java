package dev.dictum.whisper.decode;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.random.RandomGenerator;

/**
 * OpenAI's {@code GreedyDecoder}: argmax at temperature 0, otherwise one categorical sample per row
 * (best_of rows are independent samples). The log-probability added to a row's sum is that of the
 * chosen token under the filtered logits at temperature 1. A row that has produced eot keeps
 * producing eot at no cost; decoding is complete when every row has.
 *
 * <p>At temperature 0 the choice is the argmax, which the log-probability does not change: that
 * log-probability (a log-sum-exp over the vocabulary) is computed on a {@link SideThread} while the
 * caller runs the next decoder step, and added at the next update or at {@link #finish}, in step
 * order, with the same arithmetic: the sums are the same bits as computed inline.
 */
final class GreedyDecoder implements TokenDecoder {
    private final double temperature;
    private final int eot;
    private final int sampleBegin;
    private final RandomGenerator rng;
    private final int[] next;
    private final float[] nextLogprobs;
    /** The last step's filtered rows (copies) and chosen tokens, whose log-probabilities are pending. */
    private final float[][] pendingRows;
    private final int[] pendingTokens;
    private final boolean[] pendingRow;
    private final double[] pendingLogprobs;
    private int pendingAt = -1;
    private Future<?> pending;

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
        this.pendingRows = new float[batch][];
        this.pendingTokens = new int[batch];
        this.pendingRow = new boolean[batch];
        this.pendingLogprobs = new double[batch];
    }

    @Override
    public boolean update(SequenceBatch batch, float[][] logits) {
        settle(batch);
        boolean completed = true;
        boolean deferred = false;
        for (int r = 0; r < batch.size(); r++) {
            pendingRow[r] = false;
            if (batch.last(r) == eot) {
                next[r] = eot;
                nextLogprobs[r] = 0;
                continue;
            }
            float[] row = logits[r];
            if (temperature == 0) {
                int token = LogitMath.argmax(row);
                if (pendingRows[r] == null) {
                    pendingRows[r] = new float[row.length];
                }
                System.arraycopy(row, 0, pendingRows[r], 0, row.length); // the caller reuses `row`
                pendingTokens[r] = token;
                pendingRow[r] = true;
                deferred = true;
                next[r] = token;
                nextLogprobs[r] = 0; // set by settle()
                completed &= token == eot;
                continue;
            }
            int token = TokenSampler.sample(row, temperature, rng);
            double logprob = row[token] - LogitMath.logSumExp(row, 0, row.length);
            batch.sumLogprobs[r] += logprob;
            next[r] = token;
            nextLogprobs[r] = (float) logprob;
            completed &= token == eot;
        }
        batch.append(next, nextLogprobs);
        if (deferred) {
            pendingAt = batch.length() - 1;
            pending = SideThread.EXECUTOR.submit(() -> {
                for (int r = 0; r < pendingRow.length; r++) {
                    if (pendingRow[r]) {
                        float[] row = pendingRows[r];
                        pendingLogprobs[r] = row[pendingTokens[r]] - LogitMath.logSumExp(row, 0, row.length);
                    }
                }
            });
        }
        return completed;
    }

    /** Waits for the pending log-probabilities and adds them where update() would have, in step order. */
    private void settle(SequenceBatch batch) {
        if (pending == null) {
            return;
        }
        SideThread.get(pending);
        pending = null;
        for (int r = 0; r < batch.size(); r++) {
            if (pendingRow[r]) {
                batch.sumLogprobs[r] += pendingLogprobs[r];
                batch.logprobs[r][pendingAt] = (float) pendingLogprobs[r];
            }
        }
    }

    /** Every row is a candidate; rows cut off by sample_len end where they are (OpenAI pads an eot). */
    @Override
    public List<Candidate> finish(SequenceBatch batch) {
        settle(batch);
        List<Candidate> out = new ArrayList<>(batch.size());
        for (int r = 0; r < batch.size(); r++) {
            out.add(Candidate.slice(batch.tokens[r], batch.logprobs[r], batch.length(), sampleBegin, eot,
                    batch.sumLogprobs[r]));
        }
        return out;
    }
}
