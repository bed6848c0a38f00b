package dev.dictum.gpu;

/**
 * An f32 activation buffer owned by one backend (or, from {@link Backend#allocateHalf}, one the backend
 * may store in f16). Closing frees its memory.
 */
public interface Buffer extends AutoCloseable {

    /** Capacity in values (floats, or f16 values where the backend stores them so). */
    long floats();

    @Override
    void close();
}
