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
