package dev.dictum.whisper.decode;

import dev.dictum.whisper.model.DecoderState;
import dev.dictum.whisper.model.ForwardingDecoderState;

/**
 * Measures the time spent in {@link #feed} and {@link #feedAll} (System.nanoTime around each call)
 * and counts the calls: a draft checked in one batched pass is one step.
 */
final class TimedDecoderState extends ForwardingDecoderState {
    private long nanos;
    private int steps;

    TimedDecoderState(DecoderState inner) {
        super(inner);
    }

    long nanos() {
        return nanos;
    }

    int steps() {
        return steps;
    }

    @Override
    public void feed(int[][] tokens, float[][] logits) {
        long t0 = System.nanoTime();
        inner.feed(tokens, logits);
        nanos += System.nanoTime() - t0;
        steps++;
    }

    @Override
    public void feedAll(int[] tokens, int from, float[][] logits) {
        long t0 = System.nanoTime();
        inner.feedAll(tokens, from, logits);
        nanos += System.nanoTime() - t0;
        steps++;
    }
}
