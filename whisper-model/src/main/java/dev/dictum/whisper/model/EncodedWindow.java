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
    final Buffer[] crossKeys;
    final Buffer[] crossValues;

    EncodedWindow(Backend be, int rows, int cols, Buffer output, Buffer[] crossKeys, Buffer[] crossValues) {
        this.be = be;
        this.rows = rows;
        this.cols = cols;
        this.output = output;
        this.crossKeys = crossKeys;
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
        for (int i = 0; i < crossKeys.length; i++) {
            crossKeys[i].close();
            crossValues[i].close();
        }
    }
}
