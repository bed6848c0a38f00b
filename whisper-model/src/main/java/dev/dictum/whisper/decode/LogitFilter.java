package dev.dictum.whisper.decode;

/**
 * Masks or penalises the logits of one sequence in place before the next token is chosen
 * (OpenAI's {@code LogitFilter}). Filters run in a fixed order: blank, suppress, timestamps.
 */
public interface LogitFilter {

    /**
     * @param logits the next-token logits of this sequence (length n_vocab), modified in place
     * @param tokens the sequence so far, initial tokens included, in {@code tokens[0..length)}
     */
    void apply(float[] logits, int[] tokens, int length);
}
