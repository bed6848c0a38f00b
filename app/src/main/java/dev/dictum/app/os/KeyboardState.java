package dev.dictum.app.os;

/** What the global hook knows about the keyboard and mouse, for the insertion. */
public interface KeyboardState {

    /**
     * Whether the user still holds a modifier or the key of one of the app's hotkeys: a keystroke sent
     * now would mix with it (Ctrl+V under a held Alt is another shortcut; under a held V of Ctrl+Alt+V,
     * whose grab is still active, it goes to the app's own grab, not the window).
     */
    boolean shortcutKeysHeld();

    /**
     * When the user last pressed a key or button that is not one of the app's hotkeys (typing,
     * Backspace, Ctrl+A, a click that moves the caret), in {@link System#currentTimeMillis()}; 0
     * when unknown. After such a press the field may have been cleared or the caret moved.
     */
    default long lastEditMillis() {
        return 0;
    }

    /**
     * Waits until none of {@link #shortcutKeysHeld} is held, at most {@code timeoutMillis}; false when one
     * still is. This default looks every 10 ms; the hotkeys' own ends on the key-release event.
     */
    default boolean awaitShortcutKeysReleased(long timeoutMillis) throws InterruptedException {
        long until = System.nanoTime() + timeoutMillis * 1_000_000;
        while (shortcutKeysHeld()) {
            if (System.nanoTime() >= until) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    KeyboardState NONE = () -> false;
}
