package dev.dictum.app.history;

import java.nio.file.Path;
import java.time.Instant;

/**
 * One dictation as the history keeps it.
 *
 * @param id                 database id (0 before it is stored)
 * @param time               when the recording started
 * @param durationMillis     length of the recording
 * @param text               the transcript ("" when empty or failed)
 * @param language           the language used or detected, or null
 * @param model              a readable model name
 * @param backend            the backend that ran it (cpu, cuda, hip)
 * @param releaseToTextMillis from the hotkey's release to the text being inserted (-1 unknown)
 * @param transcribeMillis   time spent in the engine after the release (-1 unknown)
 * @param encodeMillis       encoder time (-1 unknown)
 * @param decodeMillis       decoder time (-1 unknown)
 * @param wavPath            the saved recording, or null when it was not kept
 * @param status             OK, FAILED or EMPTY
 * @param error              why it failed (FAILED only), else null
 */
public record HistoryEntry(
        long id,
        Instant time,
        long durationMillis,
        String text,
        String language,
        String model,
        String backend,
        long releaseToTextMillis,
        long transcribeMillis,
        long encodeMillis,
        long decodeMillis,
        Path wavPath,
        HistoryStatus status,
        String error) {

    public HistoryEntry {
        text = text == null ? "" : text;
    }

    public HistoryEntry withId(long v) {
        return new HistoryEntry(v, time, durationMillis, text, language, model, backend, releaseToTextMillis,
                transcribeMillis, encodeMillis, decodeMillis, wavPath, status, error);
    }
}
