package dev.dictum.app.dictation;

/** A loaded model ready to transcribe dictations. */
public interface DictationEngine {

    EngineSession start();

    /** A session that also sends live, provisional text of the recording to {@code partial} (never inserted). */
    default EngineSession start(java.util.function.Consumer<String> partial) {
        return start();
    }

    /** Readable model name for the tray and the history. */
    String modelName();

    /** The backend it runs on: cpu, cuda, hip. */
    String backendName();
}
