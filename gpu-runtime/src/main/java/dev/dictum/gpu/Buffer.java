package dev.dictum.gpu;

/** An f32 activation buffer owned by one backend. Closing frees its memory. */
public interface Buffer extends AutoCloseable {

    /** Capacity in floats. */
    long floats();

    @Override
    void close();
}
