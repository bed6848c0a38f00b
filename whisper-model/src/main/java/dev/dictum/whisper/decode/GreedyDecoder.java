package dev.dictum.whisper.decode;

import java.util.ArrayDeque;
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
 * log-probability (a log-sum-exp over the vocabulary, ~0.25 ms) is computed on a {@link SideThread}
 * while the caller runs the next decoder steps, and added in step order, with the same arithmetic
 * (the sums are the same bits as computed inline), once {@value #IN_FLIGHT} steps are pending or at
 * {@link #finish}. Several in flight, not one: a GPU step of a small model (tiny: ~0.3 ms) is as short
 * as the sum, and waiting for each step's sum before the next made the loop host-bound.
 */
final class GreedyDecoder implements TokenDecoder {
    private final double temperature;
    private final int eot;
    private final int sampleBegin;
    private final RandomGenerator rng;
    private final int[] next;
    private final float[] nextLogprobs;
    /** Steps whose log-probabilities may be pending at once (bounds the side thread's backlog). */
    static final int IN_FLIGHT = 8;
    /** Pending steps, oldest first; settled ones are kept for reuse (their row copies are 200 KB). */
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private final ArrayDeque<Pending> spare = new ArrayDeque<>();

    /** One step's filtered rows (copies), chosen tokens and, once computed, their log-probabilities. */
    private static final class Pending {
        final float[][] rows;
        final int[] tokens;
        final boolean[] used;
        final double[] logprobs;
        int at;
        Future<?> done;

        Pending(int batch) {
            rows = new float[batch][];
            tokens = new int[batch];
            used = new boolean[batch];
            logprobs = new double[batch];
        }
    }

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
        while (pending.size() >= IN_FLIGHT) {
            settleOldest(batch);
        }
        Pending p = spare.isEmpty() ? new Pending(batch.size()) : spare.poll();
        boolean completed = true;
        boolean deferred = false;
        for (int r = 0; r < batch.size(); r++) {
            p.used[r] = false;
            if (batch.last(r) == eot) {
                next[r] = eot;
                nextLogprobs[r] = 0;
                continue;
            }
            float[] row = logits[r];
            if (temperature == 0) {
                int token = LogitMath.argmax(row);
                if (p.rows[r] == null || p.rows[r].length != row.length) {
                    p.rows[r] = new float[row.length];
                }
                System.arraycopy(row, 0, p.rows[r], 0, row.length); // the caller reuses `row`
                p.tokens[r] = token;
                p.used[r] = true;
                deferred = true;
                next[r] = token;
                nextLogprobs[r] = 0; // set when settled
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
            p.at = batch.length() - 1;
            Pending step = p;
            p.done = SideThread.EXECUTOR.submit(() -> {
                for (int r = 0; r < step.used.length; r++) {
                    if (step.used[r]) {
                        float[] row = step.rows[r];
                        step.logprobs[r] = row[step.tokens[r]] - LogitMath.logSumExp(row, 0, row.length);
                    }
                }
            });
            pending.add(p);
        } else {
            spare.add(p);
        }
        return completed;
    }

    /** Waits for the oldest pending step and adds its log-probabilities where update() would have. */
    private void settleOldest(SequenceBatch batch) {
        Pending p = pending.poll();
        SideThread.get(p.done);
        p.done = null;
        for (int r = 0; r < batch.size(); r++) {
            if (p.used[r]) {
                batch.sumLogprobs[r] += p.logprobs[r];
                batch.logprobs[r][p.at] = (float) p.logprobs[r];
            }
        }
        spare.add(p);
    }

    private void settle(SequenceBatch batch) {
        while (!pending.isEmpty()) {
            settleOldest(batch);
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
