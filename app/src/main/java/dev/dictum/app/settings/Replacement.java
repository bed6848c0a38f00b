package dev.dictum.app.settings;

/**
 * One user rule applied to the text after transcription, e.g. "teh" → "the", "dictum" → "Dictum".
 *
 * @param from      what the model wrote (not empty)
 * @param to        what to insert instead (may be empty: delete it)
 * @param wholeWord true: only where {@code from} stands as whole words, ignoring case; false: the
 *                  exact characters anywhere, even inside a word
 */
public record Replacement(String from, String to, Boolean wholeWord) {
    public Replacement {
        from = Checks.or(from, "");
        to = Checks.or(to, "");
        wholeWord = Checks.or(wholeWord, true);
    }
}
