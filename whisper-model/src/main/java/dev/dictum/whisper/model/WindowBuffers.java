package dev.dictum.whisper.model;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.MemoryCategory;

/**
 * The backend memory of one encoded window: the encoder output and, per decoder layer, the
 * cross-attention keys (transposed) and values. A captured decoder step names these buffers, so a
 * set that outlives its window (the {@link WindowPool}'s) lets the next window's decoding replay
 * the same graph; the graph is valid for a window exactly when the window holds the same set.
 */
final class WindowBuffers {
    final int frames;
    final int cols;
    final Buffer output;
    /** Per layer, the keys transposed: {@code [n_state, keysStride]} (see Backend#crossAttention). */
    final Buffer[] crossKeysT;
    final int keysStride;
    final Buffer[] crossValues;

    private WindowBuffers(int frames, int cols, Buffer output, Buffer[] crossKeysT, int keysStride,
            Buffer[] crossValues) {
        this.frames = frames;
        this.cols = cols;
        this.output = output;
        this.crossKeysT = crossKeysT;
        this.keysStride = keysStride;
        this.crossValues = crossValues;
    }

    /** Allocates a set for {@code frames} encoder positions of {@code cols} channels and {@code layers} decoder layers. */
    static WindowBuffers allocate(Backend be, int frames, int cols, int layers) {
        int stride = TextDecoder.keysStride(frames);
        Buffer output = be.allocate((long) frames * cols, MemoryCategory.ENCODER_SCRATCH);
        Buffer[] keysT = new Buffer[layers];
        Buffer[] values = new Buffer[layers];
        WindowBuffers b = new WindowBuffers(frames, cols, output, keysT, stride, values);
        try {
            // f16 where the backend stores them so (the GPU: half of what every decoded token reads), every
            // layer's keys in one set and its values in another (the GPU: one allocation each)
            System.arraycopy(be.allocateHalf((long) cols * stride, layers, MemoryCategory.CROSS_KV), 0, keysT, 0, layers);
            System.arraycopy(be.allocateHalf((long) frames * cols, layers, MemoryCategory.CROSS_KV), 0, values, 0, layers);
        } catch (RuntimeException e) {
            b.free();
            throw e;
        }
        return b;
    }

    void free() {
        output.close();
        for (int l = 0; l < crossKeysT.length; l++) {
            if (crossKeysT[l] != null) {
                crossKeysT[l].close();
            }
            if (crossValues[l] != null) {
                crossValues[l].close();
            }
        }
    }
}
