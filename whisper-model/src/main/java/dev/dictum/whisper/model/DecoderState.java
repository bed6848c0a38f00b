package dev.dictum.whisper.model;

/**
 * Per-utterance decoder state (the key/value caches of a batch of sequences), apart from the
 * immutable weights. Not thread-safe: one decoding at a time uses it.
 */
public interface DecoderState extends AutoCloseable {

    /** Empties the caches and starts {@code batch} sequences attending to {@code audio}. */
    void reset(EncodedAudio audio, int batch);

    /**
     * Appends {@code tokens[b]} to sequence b (every row the same length, at least 1) and writes the
     * logits (length n_vocab) at each sequence's last new position into {@code logits[b]}.
     */
    void feed(int[][] tokens, float[][] logits);

    /**
     * For a batch of one sequence: appends {@code tokens} (at least one) in one pass, as {@link #feed}
     * does, and writes the logits at every fed position from {@code from} on: {@code logits[i - from]}
     * follows {@code tokens[0..i]}. Checking a draft of several tokens then costs one pass instead of
     * one step per token. The logits are those of the batched pass, which may differ in the last bits
     * from what single-token steps give for the same positions (a backend's many-row products may
     * round differently from its one-row products).
     */
    void feedAll(int[] tokens, int from, float[][] logits);

    /**
     * Forgets every position from {@code length} on, for every sequence: the next feed continues at
     * {@code length} as if the tokens after it had never been fed (their cache rows are overwritten).
     * Used to drop the rejected part of a draft.
     *
     * @throws IllegalArgumentException when {@code length} is negative or beyond {@link #length()}
     */
    void truncate(int length);

    /**
     * Rearranges the batch for beam search: afterwards there are {@code sourceOf.length} sequences,
     * and sequence i continues what old sequence {@code sourceOf[i]} had.
     */
    void reorder(int[] sourceOf);

    /** Sequences in the batch now. */
    int batch();

    /** Tokens fed to every sequence so far. */
    int length();

    @Override
    void close();
}
