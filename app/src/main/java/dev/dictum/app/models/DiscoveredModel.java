package dev.dictum.app.models;

import java.nio.file.Path;

/**
 * A model found on disk.
 *
 * @param name      what the menu shows: "base.en q5_1 (whisper.cpp)", "openai/whisper-tiny (Hugging Face cache)"
 * @param path      what {@code WhisperEngine.load} takes: the folder, or the ggml file
 * @param format    its format
 * @param source    where it was found
 * @param sizeBytes the weights' size on disk
 */
public record DiscoveredModel(String name, Path path, ModelFormat format, Source source, long sizeBytes) {

    /** Where a model was found. */
    public enum Source { MODELS_FOLDER, HUGGING_FACE_CACHE, CONFIGURED }
}
