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
        Buffer[] keysT = new Buffer[layers];
        Buffer[] values = new Buffer[layers];
        Buffer output = be.allocate((long) frames * cols, MemoryCategory.ENCODER_SCRATCH);
        WindowBuffers b = new WindowBuffers(frames, cols, output, keysT, stride, values);
        try {
            for (int l = 0; l < layers; l++) {
                // f16 where the backend stores them so (the GPU: half of what every decoded token reads)
                keysT[l] = be.allocateHalf((long) cols * stride, MemoryCategory.CROSS_KV);
                values[l] = be.allocateHalf((long) frames * cols, MemoryCategory.CROSS_KV);
            }
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
