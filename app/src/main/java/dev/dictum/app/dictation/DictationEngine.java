package dev.dictum.app.dictation;

/** A loaded model ready to transcribe dictations. */
public interface DictationEngine {

    EngineSession start();

    /** Readable model name for the tray and the history. */
    String modelName();

    /** The backend it runs on: cpu, cuda, hip. */
    String backendName();
}
