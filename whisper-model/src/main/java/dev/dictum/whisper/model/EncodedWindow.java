package dev.dictum.whisper.model;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Buffer;

/**
 * One encoded window on the backend: the encoder output and, per decoder layer, the
 * cross-attention keys and values computed from it.
 */
final class EncodedWindow implements EncodedAudio {
    private final Backend be;
    private final int rows;
    private final int cols;
    final Buffer output;
    /** Per layer, the keys transposed: {@code [n_state, keysStride]} (see Backend#crossAttention). */
    final Buffer[] crossKeysT;
    final int keysStride;
    final Buffer[] crossValues;

    EncodedWindow(Backend be, int rows, int cols, Buffer output, Buffer[] crossKeysT, int keysStride,
            Buffer[] crossValues) {
        this.be = be;
        this.rows = rows;
        this.cols = cols;
        this.output = output;
        this.crossKeysT = crossKeysT;
        this.keysStride = keysStride;
        this.crossValues = crossValues;
    }

    int frames() {
        return rows;
    }

    @Override
    public float[] toHost() {
        float[] host = new float[rows * cols];
        be.download(output, 0, host, 0, host.length);
        return host;
    }

    @Override
    public void close() {
        output.close();
        for (int i = 0; i < crossKeysT.length; i++) {
            crossKeysT[i].close();
            crossValues[i].close();
        }
    }
}
