package dev.dictum.app.os;

import java.util.Set;

/**
 * A combination the app holds for itself while it acts on it, so that the focused window never
 * receives it (no stray Enter, no second paste, no Escape that closes the user's dialog).
 *
 * @param modifiers    the modifiers held with the trigger
 * @param keyName      the trigger key as the global hook names it ("Space", "Enter", "F13"), null for a mouse button
 * @param mouseButton  the trigger mouse button as the hook numbers it (2 right, 3 middle, 4 and 5 the side
 *                     buttons), 0 for a key
 * @param anyModifiers held with any modifiers at all, not only its own (the cancel key)
 */
public record Grab(Set<Modifier> modifiers, String keyName, int mouseButton, boolean anyModifiers) {
    public Grab {
        modifiers = Set.copyOf(modifiers);
        if ((keyName == null) == (mouseButton == 0)) {
            throw new IllegalArgumentException("a grab needs either a key or a mouse button");
        }
    }

    /** The same combination held with its own modifiers only. */
    public Grab exact() {
        return new Grab(modifiers, keyName, mouseButton, false);
    }

    /** The hotkey's canonical text ("Ctrl+Alt+Space"), marked when held with any modifiers. */
    @Override
    public String toString() {
        String text = Modifier.combination(modifiers, keyName != null ? keyName : "Mouse" + mouseButton);
        return anyModifiers ? text + " (with any modifiers)" : text;
    }
}
