package dev.dictum.whisper.decode;

import java.util.List;

/** How the next tokens are chosen from filtered logits (OpenAI's {@code TokenDecoder}). */
interface TokenDecoder {

    /**
     * Appends the next token of every row of {@code batch}, given each row's filtered logits.
     *
     * @return true when decoding is complete
     */
    boolean update(SequenceBatch batch, float[][] logits);

    /** The candidates to rank once the loop has ended. */
    List<Candidate> finish(SequenceBatch batch);
}
