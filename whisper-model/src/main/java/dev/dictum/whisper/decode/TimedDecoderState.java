package dev.dictum.whisper.decode;

import dev.dictum.whisper.model.DecoderState;
import dev.dictum.whisper.model.EncodedAudio;

/** Measures the time spent in {@link #feed} (System.nanoTime around each call) and counts the calls. */
final class TimedDecoderState implements DecoderState {
    private final DecoderState inner;
    private long nanos;
    private int steps;

    TimedDecoderState(DecoderState inner) {
        this.inner = inner;
    }

    long nanos() {
        return nanos;
    }

    int steps() {
        return steps;
    }

    @Override
    public void reset(EncodedAudio audio, int batch) {
        inner.reset(audio, batch);
    }

    @Override
    public void feed(int[][] tokens, float[][] logits) {
        long t0 = System.nanoTime();
        inner.feed(tokens, logits);
        nanos += System.nanoTime() - t0;
        steps++;
    }

    @Override
    public void reorder(int[] sourceOf) {
        inner.reorder(sourceOf);
    }

    @Override
    public int batch() {
        return inner.batch();
    }

    @Override
    public int length() {
        return inner.length();
    }

    @Override
    public void close() {
        inner.close();
    }
}
