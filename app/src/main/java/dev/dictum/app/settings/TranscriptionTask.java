package dev.dictum.app.settings;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Transcribe in the spoken language, or translate to English. */
public enum TranscriptionTask {
    @JsonProperty("transcribe") TRANSCRIBE,
    @JsonProperty("translate") TRANSLATE
}
