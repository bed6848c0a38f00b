package dev.dictum.gpu;

/**
 * A decoder step captured once by a backend (a CUDA graph) and replayed with one launch. The values
 * that change per token are read by the captured ops from a step buffer in device memory (see
 * {@link Backend#embedStep}), so a replay after that buffer is updated is the next token's step.
 */
public interface StepGraph extends AutoCloseable {

    /** Queues the whole captured step on the backend's stream. */
    void replay();

    @Override
    void close();
}
