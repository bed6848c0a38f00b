package dev.dictum.app.dictation;

import dev.dictum.app.os.KeyboardState;
import dev.dictum.app.os.TargetWindow;
/**
 * Whether a dictation starts with a space, so that two dictated sentences do not run together
 * ("late.We are"). No platform API here tells what is left of the caret in any application (X11
 * has none; Windows' UI Automation not in every app), so the decision rests on what Dictum itself
 * knows: the previous insertion went into this same window, ended a sentence, a short while ago,
 * and the user has not touched the keyboard or mouse since (a Backspace, Ctrl+A or a click may
 * have cleared the field or moved the caret: then no space, since a space at the start of a
 * field is worse than a missing one).
 */
final class LeadingSpace {
    /** After this long without dictating, the field may hold anything: no space. */
    static final long WINDOW_MILLIS = 60_000;
    /** Hook events of the app's own paste or typing may arrive this long after the insertion ended. */
    static final long OWN_KEYS_MILLIS = 250;

    /** The previous insertion: its text, window and when it ended. */
    record Previous(String text, TargetWindow target, long atMillis) {
    }

    private LeadingSpace() {
    }

    /**
     * @param lastEditMillis when the user last pressed a non-hotkey key or clicked ({@link KeyboardState#lastEditMillis})
     */
    static boolean needed(Previous prev, TargetWindow target, long nowMillis, long lastEditMillis) {
        return prev != null && target.id() != 0 && target.equals(prev.target())
                && nowMillis - prev.atMillis() <= WINDOW_MILLIS
                && lastEditMillis <= prev.atMillis() + OWN_KEYS_MILLIS
                && prev.text().strip().matches("(?s).*[.!?…。！？]$");
    }
}
