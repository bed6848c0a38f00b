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
 * @param status             OK, FAILED, EMPTY or CANCELLED
 * @param error              why it failed (FAILED), or a note on a kept entry ("audio not saved: …"), else null
 * @param rawText            the engine's text before replacements and voice commands ({@code text} is what
 *                           was inserted); the same as {@code text} when nothing changed it
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
        String error,
        String rawText) {

    public HistoryEntry {
        text = text == null ? "" : text;
        rawText = rawText == null ? text : rawText;
    }

    /** An entry whose text was inserted as the engine gave it (no replacements). */
    public HistoryEntry(long id, Instant time, long durationMillis, String text, String language, String model,
            String backend, long releaseToTextMillis, long transcribeMillis, long encodeMillis, long decodeMillis,
            Path wavPath, HistoryStatus status, String error) {
        this(id, time, durationMillis, text, language, model, backend, releaseToTextMillis, transcribeMillis,
                encodeMillis, decodeMillis, wavPath, status, error, text);
    }

    public HistoryEntry withId(long v) {
        return new HistoryEntry(v, time, durationMillis, text, language, model, backend, releaseToTextMillis,
                transcribeMillis, encodeMillis, decodeMillis, wavPath, status, error, rawText);
    }

    /** This entry with what the engine said before the text rules ({@code text} stays what was inserted). */
    public HistoryEntry withRawText(String raw) {
        return new HistoryEntry(id, time, durationMillis, text, language, model, backend, releaseToTextMillis,
                transcribeMillis, encodeMillis, decodeMillis, wavPath, status, error, raw);
    }

    /** This entry with a note in place of the error ("audio not saved: disk full"). */
    public HistoryEntry withNote(String note) {
        return new HistoryEntry(id, time, durationMillis, text, language, model, backend, releaseToTextMillis,
                transcribeMillis, encodeMillis, decodeMillis, wavPath, status, note, rawText);
    }

    /** True when replacements or voice commands changed the engine's text. */
    public boolean replaced() {
        return !rawText.strip().equals(text.strip()); // the leading space between dictations is not a replacement
    }
}
