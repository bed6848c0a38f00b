package dev.dictum.app.hotkey;

/**
 * A combination the app holds for itself while it acts on it, so that the focused window never
 * receives it (no stray Enter, no second paste, no Escape that closes the user's dialog).
 *
 * @param hotkey       a combination with a trigger that is not a modifier
 * @param anyModifiers held with any modifiers at all, not only the hotkey's own (the cancel key)
 */
public record Grab(Hotkey hotkey, boolean anyModifiers) {

    /** Whether a combination can be held without taking a modifier away from the user. */
    static boolean possible(Hotkey h) {
        return h.trigger() != null && h.trigger().modifier() == null;
    }

    @Override
    public String toString() {
        return anyModifiers ? hotkey + " (with any modifiers)" : hotkey.toString();
    }
}
