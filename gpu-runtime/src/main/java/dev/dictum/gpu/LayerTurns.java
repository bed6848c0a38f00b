package dev.dictum.gpu;

/**
 * The weights of a run of same-shaped layers (the audio encoder's blocks), made resident by
 * {@link Backend#uploadInTurns}. On a GPU short of memory (issue 22) the layers take turns in a few
 * device slots: each layer's weights stay in page-locked host memory and are copied into a slot while
 * the layer before runs, so the device holds two layers of weights instead of all of them. The
 * model calls {@link #begin} before a pass over the layers and {@link #enter} before each layer's ops;
 * the weights of a layer may be read only by the ops queued between its {@code enter} and the next.
 */
public interface LayerTurns extends AutoCloseable {
    /** Device slots a GPU gives layers that take turns: one for the layer that runs, one for the next coming in. */
    int DEVICE_SLOTS = 2;

    /** Layer {@code i}'s weights, in the order its tensors were given. */
    Weight[] weights(int layer);

    /** A pass over the layers starts: a backend may start bringing in the first layers now. */
    void begin();

    /** Layer {@code i}'s ops are queued next: its weights must be in place for them. */
    void enter(int layer);

    /** Bytes of host memory held for the layers that take turns (0 where every layer stays resident). */
    long hostBytes();

    @Override
    void close();
}
