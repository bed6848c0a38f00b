package dev.dictum.whisper.model;

import java.util.ArrayList;
import java.util.List;

/** A decoder state that keeps every feed's logits and counts the beams that reorders moved (beam-reorder tests). */
final class RecordingDecoderState extends ForwardingDecoderState {
    /** Every feed's logits, one row per sequence. */
    final List<float[][]> logits = new ArrayList<>();
    /** Sequences that a reorder gave another sequence's history. */
    int moves;

    RecordingDecoderState(DecoderState inner) {
        super(inner);
    }

    @Override
    public void feed(int[][] tokens, float[][] out) {
        super.feed(tokens, out);
        float[][] copy = new float[tokens.length][];
        for (int b = 0; b < tokens.length; b++) {
            copy[b] = out[b].clone();
        }
        logits.add(copy);
    }

    @Override
    public void reorder(int[] sourceOf) {
        for (int i = 0; i < sourceOf.length; i++) {
            moves += sourceOf[i] != i ? 1 : 0;
        }
        super.reorder(sourceOf);
    }
}
