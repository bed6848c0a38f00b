package dev.dictum.whisper.model;

/**
 * A decoder state that passes every call on to another; subclasses override only what they watch
 * (the time of each step, whether the work is still wanted).
 */
public abstract class ForwardingDecoderState implements DecoderState {
    protected final DecoderState inner;

    protected ForwardingDecoderState(DecoderState inner) {
        this.inner = inner;
    }

    @Override
    public void reset(EncodedAudio audio, int batch) {
        inner.reset(audio, batch);
    }

    @Override
    public void feed(int[][] tokens, float[][] logits) {
        inner.feed(tokens, logits);
    }

    @Override
    public void feedAll(int[] tokens, int from, float[][] logits) {
        inner.feedAll(tokens, from, logits);
    }

    @Override
    public void truncate(int length) {
        inner.truncate(length);
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
