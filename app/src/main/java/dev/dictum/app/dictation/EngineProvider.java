package dev.dictum.app.dictation;

/** Hands out the engine once a model is loaded (and warmed up). */
public interface EngineProvider {

    /** The ready engine, or null while none is loaded. */
    DictationEngine ready();

    /**
     * Waits up to {@code millis} for a model that is loading.
     *
     * @return the engine, or null when none is loaded or loading failed
     */
    DictationEngine await(long millis) throws InterruptedException;

    /** Why no engine is ready ("No model chosen", "Loading toy-en…", the load error), or null. */
    String unavailableReason();
}
