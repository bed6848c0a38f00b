package dev.dictum.gpu.cpu;

import dev.dictum.gpu.Buffer;

/** A CPU activation buffer: a heap float array (the Vector API loads heap arrays fastest). */
final class CpuBuffer implements Buffer {
    final float[] data;

    CpuBuffer(long floats) {
        if (floats > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("CPU buffer of " + floats + " floats is too large");
        }
        this.data = new float[(int) floats];
    }

    @Override
    public long floats() {
        return data.length;
    }

    @Override
    public void close() {
        // Heap memory: the GC reclaims it once the model drops the reference.
    }
}
