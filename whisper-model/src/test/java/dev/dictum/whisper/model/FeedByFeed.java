package dev.dictum.whisper.model;

import dev.dictum.whisper.format.WhisperDims;
import java.util.ArrayList;
import java.util.List;

/**
 * One decoding advanced a feed at a time, for tests that interleave other work between feeds: the prompt
 * to each row first, then each row's argmax (+ its row, so that beams differ); every row's logits of every
 * feed kept in {@link #seen}.
 */
final class FeedByFeed {
    private final DecoderState dec;
    private final int batch;
    private final float[][] logits;
    private final int[] prompt;
    private final int textCtx;
    final List<float[]> seen = new ArrayList<>();

    FeedByFeed(DecoderState dec, EncodedAudio audio, int batch, int[] prompt, WhisperDims d) {
        this.dec = dec;
        this.batch = batch;
        this.logits = new float[batch][d.nVocab()];
        this.prompt = prompt;
        this.textCtx = d.nTextCtx();
        dec.reset(audio, batch);
    }

    /** Feeds the next tokens; false (nothing fed) once they would not fit the text context. */
    boolean next() {
        if (dec.length() + (seen.isEmpty() ? prompt.length : 1) > textCtx) {
            return false;
        }
        int[][] tokens = new int[batch][];
        for (int b = 0; b < batch; b++) {
            tokens[b] = seen.isEmpty() ? prompt : new int[] {(ModelOracleTest.argmax(logits[b]) + b) % logits[b].length};
        }
        dec.feed(tokens, logits);
        for (float[] row : logits) {
            seen.add(row.clone());
        }
        return true;
    }
}
