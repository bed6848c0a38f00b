package dev.dictum.whisper.model;

import dev.dictum.gpu.Backend;

/**
 * One encoded window on the backend: the encoder output and, per decoder layer, the
 * cross-attention keys and values computed from it, in buffers lent by the model's
 * {@link WindowPool} until {@link #close()}.
 */
final class EncodedWindow implements EncodedAudio {
    private final Backend be;
    private final WindowPool pool;
    private WindowBuffers buffers;

    EncodedWindow(Backend be, WindowPool pool, WindowBuffers buffers) {
        this.be = be;
        this.pool = pool;
        this.buffers = buffers;
    }

    /** The buffers, while the window is open (after its close another window may own them). */
    synchronized WindowBuffers buffers() {
        if (buffers == null) {
            throw new IllegalStateException("the encoded window was closed");
        }
        return buffers;
    }

    @Override
    public float[] toHost() {
        WindowBuffers b = buffers();
        float[] host = new float[b.frames * b.cols];
        be.download(b.output, 0, host, 0, host.length);
        return host;
    }

    /** Gives the buffers back; a second close does nothing (the buffers may be another window's by then). */
    @Override
    public synchronized void close() {
        if (buffers != null) {
            WindowBuffers b = buffers;
            buffers = null;
            pool.give(b);
        }
    }
}
