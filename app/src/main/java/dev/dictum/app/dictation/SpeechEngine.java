package dev.dictum.app.dictation;

/**
 * What the dictation loop needs from a loaded model: start a {@link Dictation}, and the names of
 * the model and backend for the tray and the history. Implemented over Whisper in {@code engine}.
 */
public interface SpeechEngine {

    Dictation start();

    /** A dictation that also sends live, provisional text of the recording to {@code partial} (never inserted). */
    default Dictation start(java.util.function.Consumer<String> partial) {
        return start();
    }

    /** Readable model name for the tray and the history. */
    String modelName();

    /** The backend it runs on: cpu, cuda, hip. */
    String backendName();

    /**
     * Where the loop gets the current engine: the engine manager (in {@code engine}, which imports
     * this package, so the loop names it by this face only); tests hand in stand-ins.
     */
    interface Source {

        /** The ready engine, or null while none is loaded. */
        SpeechEngine ready();

        /**
         * Waits up to {@code millis} for a model that is loading.
         *
         * @return the engine, or null when none is loaded or loading failed
         */
        SpeechEngine await(long millis) throws InterruptedException;

        /** Why no engine is ready ("No model chosen", "Loading toy-en…", the load error), or null. */
        String unavailableReason();
    }
}
