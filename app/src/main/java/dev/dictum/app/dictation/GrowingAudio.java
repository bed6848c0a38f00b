package dev.dictum.app.dictation;

import java.util.Arrays;

/** Samples appended in chunks, read back as one array (the whole recording for its WAV). */
final class GrowingAudio {
    private float[] data = new float[16000 * 10];
    private int size;

    void append(float[] chunk) {
        if (size + chunk.length > data.length) {
            data = Arrays.copyOf(data, Math.max(data.length * 2, size + chunk.length));
        }
        System.arraycopy(chunk, 0, data, size, chunk.length);
        size += chunk.length;
    }

    int size() {
        return size;
    }

    float[] toArray() {
        return Arrays.copyOf(data, size);
    }
}
