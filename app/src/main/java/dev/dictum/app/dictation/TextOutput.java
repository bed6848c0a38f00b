package dev.dictum.app.dictation;

import dev.dictum.app.settings.InsertionSettings;

/** Puts text into the focused window (paste, typing, or only the clipboard). */
public interface TextOutput {

    /**
     * Inserts {@code text} into the focused window as {@code settings} say.
     *
     * @param enter press Enter after the text
     * @return {@link System#nanoTime()} when the text was handed to the window (the paste keystroke
     *         or the last typed character): the end of release-to-text
     * @throws Exception when it could not be inserted (the text stays in the history and can be pasted again)
     */
    long insert(String text, InsertionSettings settings, boolean enter) throws Exception;

    /**
     * A recording started: do now, while the user speaks, what the insertion can do before the text
     * exists (read the clipboard that a paste must restore). Returns at once.
     */
    default void prepare(InsertionSettings settings) {
    }
}
