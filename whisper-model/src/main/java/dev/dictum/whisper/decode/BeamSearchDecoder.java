package dev.dictum.whisper.decode;

import dev.dictum.gpu.cpu.VectorMath;
import dev.dictum.whisper.model.DecoderState;
import java.util.ArrayList;
import java.util.List;

/**
 * OpenAI's {@code BeamSearchDecoder} for one audio:
 * <ul>
 * <li>each beam proposes its {@code beam_size + 1} most probable next tokens, scored by the beam's
 *     cumulative log-probability plus the token's; identical sequences (all beams are identical at
 *     the first step) count once, the later beam's proposal replacing the earlier's value, as a
 *     Python dict keyed by the sequence does;</li>
 * <li>proposals are visited best first (stable on ties); those ending in eot become finished
 *     hypotheses, the others become the next beams until {@code beam_size} are kept;</li>
 * <li>the kv cache follows the beams through {@link DecoderState#reorder} (skipped when nothing
 *     moved, as OpenAI skips an identity rearrangement);</li>
 * <li>at most {@code round(beam_size * patience)} hypotheses are collected, best first within a
 *     step; decoding is complete once that many exist;</li>
 * <li>at the end, if fewer than beam_size finished, the live beams fill up the list best first.</li>
 * </ul>
 */
final class BeamSearchDecoder implements TokenDecoder {
    private final int beamSize;
    private final int eot;
    private final int sampleBegin;
    private final int maxCandidates;
    private final DecoderState state;
    private final List<Candidate> finished = new ArrayList<>();

    // Per-step scratch, sized once: beam_size * (beam_size + 1) proposals.
    private final int[] topTokens;
    private final int[] proposalSource;
    private final int[] proposalOrigin;
    private final int[] proposalToken;
    private final float[] proposalLogprob;
    private final double[] proposalScore;
    private final int[] order;
    private final int[] rowAlias;
    private final int[] nextSource;
    private final int[] nextToken;
    private final float[] nextLogprob;
    private final double[] nextScore;

    BeamSearchDecoder(int beamSize, Double patience, int eot, int sampleBegin, DecoderState state) {
        this.beamSize = beamSize;
        this.eot = eot;
        this.sampleBegin = sampleBegin;
        this.state = state;
        double p = patience == null || patience == 0 ? 1.0 : patience; // OpenAI: `patience or 1.0`
        this.maxCandidates = (int) Math.rint(beamSize * p); // Python's round: half to even
        if (maxCandidates <= 0) {
            throw new IllegalArgumentException("Invalid beam size (" + beamSize + ") or patience (" + patience + ")");
        }
        int proposals = beamSize * (beamSize + 1);
        topTokens = new int[beamSize + 1];
        proposalSource = new int[proposals];
        proposalOrigin = new int[proposals];
        proposalToken = new int[proposals];
        proposalLogprob = new float[proposals];
        proposalScore = new double[proposals];
        order = new int[proposals];
        rowAlias = new int[beamSize];
        nextSource = new int[beamSize];
        nextToken = new int[beamSize];
        nextLogprob = new float[beamSize];
        nextScore = new double[beamSize];
    }

    @Override
    public boolean update(SequenceBatch batch, float[][] logits) {
        if (batch.size() != beamSize) {
            throw new IllegalStateException(batch.size() + " sequences for " + beamSize + " beams");
        }
        // A beam equal to an earlier one proposes the same sequences: map it to the first of its kind.
        for (int j = 0; j < beamSize; j++) {
            rowAlias[j] = j;
            for (int k = 0; k < j; k++) {
                if (rowAlias[k] == k && batch.sameRow(k, j)) {
                    rowAlias[j] = k;
                    break;
                }
            }
        }

        // STEP 1: every beam's top beam_size + 1 continuations.
        int n = 0;
        for (int j = 0; j < beamSize; j++) {
            float[] row = logits[j];
            double lse = LogitMath.logSumExp(row, 0, row.length);
            int k = topK(row, topTokens);
            for (int i = 0; i < k; i++) {
                int token = topTokens[i];
                float logprob = (float) (row[token] - lse);
                double score = batch.sumLogprobs[j] + logprob;
                int existing = find(n, rowAlias[j], token);
                int slot = existing >= 0 ? existing : n++;
                proposalOrigin[slot] = rowAlias[j];
                proposalSource[slot] = j;
                proposalToken[slot] = token;
                proposalLogprob[slot] = logprob;
                proposalScore[slot] = score;
            }
        }

        // STEP 2: best first (stable), split into finished hypotheses and the next beams.
        sortByScoreDescending(n);
        List<Candidate> newlyFinished = new ArrayList<>(0);
        int saved = 0;
        for (int o = 0; o < n && saved < beamSize; o++) {
            int p = order[o];
            if (proposalToken[p] == eot) {
                int src = proposalSource[p];
                newlyFinished.add(Candidate.slice(batch.tokens[src], batch.logprobs[src], batch.length(),
                        sampleBegin, eot, proposalScore[p]));
            } else {
                nextSource[saved] = proposalSource[p];
                nextToken[saved] = proposalToken[p];
                nextLogprob[saved] = proposalLogprob[p];
                nextScore[saved] = proposalScore[p];
                saved++;
            }
        }
        if (saved < beamSize) {
            throw new IllegalStateException("beam search kept " + saved + " of " + beamSize + " beams");
        }

        if (!isIdentity(nextSource)) {
            state.reorder(nextSource.clone()); // a copy: the backend may keep it
        }
        batch.regroup(nextSource, nextToken, nextLogprob, nextScore);

        // newlyFinished is already best first; keep adding while there is room.
        for (Candidate c : newlyFinished) {
            if (finished.size() >= maxCandidates) {
                break;
            }
            finished.add(c);
        }
        return finished.size() >= maxCandidates;
    }

    @Override
    public List<Candidate> finish(SequenceBatch batch) {
        List<Candidate> out = new ArrayList<>(finished);
        if (out.size() < beamSize) {
            Integer[] rows = new Integer[batch.size()];
            for (int r = 0; r < rows.length; r++) {
                rows[r] = r;
            }
            // np.argsort(sum_logprobs)[::-1]: best first; on ties the later row first.
            java.util.Arrays.sort(rows, (a, b) -> {
                int c = Double.compare(batch.sumLogprobs[b], batch.sumLogprobs[a]);
                return c != 0 ? c : Integer.compare(b, a);
            });
            for (int r : rows) {
                out.add(Candidate.slice(batch.tokens[r], batch.logprobs[r], batch.length(), sampleBegin, eot,
                        batch.sumLogprobs[r]));
                if (out.size() >= beamSize) {
                    break;
                }
            }
        }
        return out;
    }

    /**
     * The k = beam_size + 1 largest logits, best first, the lower id first on ties. Once the list is full,
     * the scan jumps by whole vectors to the next logit above its last (a scalar scan took ~60 µs a row).
     */
    static int topK(float[] row, int[] top) {
        int k = 0;
        for (int t = 0; t < row.length; t++) {
            if (k == top.length) {
                t = VectorMath.firstAbove(row, t, row.length, row[top[k - 1]]);
                if (t == row.length) {
                    break;
                }
            }
            float v = row[t];
            int i = k == top.length ? k - 1 : k++;
            while (i > 0 && v > row[top[i - 1]]) {
                top[i] = top[i - 1];
                i--;
            }
            top[i] = t;
        }
        return k;
    }

    private int find(int n, int origin, int token) {
        for (int i = 0; i < n; i++) {
            if (proposalOrigin[i] == origin && proposalToken[i] == token) {
                return i;
            }
        }
        return -1;
    }

    /** Insertion sort of proposal indices by score, descending and stable (Python's sorted(reverse=True)). */
    private void sortByScoreDescending(int n) {
        for (int i = 0; i < n; i++) {
            int p = i;
            int j = i;
            while (j > 0 && proposalScore[order[j - 1]] < proposalScore[p]) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = p;
        }
    }

    private static boolean isIdentity(int[] sources) {
        for (int i = 0; i < sources.length; i++) {
            if (sources[i] != i) {
                return false;
            }
        }
        return true;
    }
}
