package dev.dictum.app.os;

/**
 * Synthetic shortcut keystrokes into the focused window: the paste keystroke and Enter. Where the
 * platform has a way of its own it is used (X11: XTest on a connection of Dictum's own); elsewhere
 * the toolkit's {@code Robot}. The X11 way exists because the paste keystroke is part of what the
 * user waits for after the release (issue 23): through AWT's Robot it took 13-33 ms (its keystroke
 * and sync go through the toolkit's shared connection and lock), through XTest on our own
 * connection well under a millisecond.
 */
public interface Keystrokes {

    /** The keys a shortcut may need. */
    enum Key { CONTROL, SHIFT, INSERT, V, ENTER }

    /**
     * Presses {@code keys} in order and releases them in reverse; returns once the platform has the
     * events (X11: the server generated them).
     *
     * @throws IllegalStateException when the keyboard has no key for one of them (nothing was sent)
     */
    void chord(Key... keys);
}
