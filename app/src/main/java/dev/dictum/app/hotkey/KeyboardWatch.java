package dev.dictum.app.hotkey;

import dev.dictum.app.os.KeyboardState;
import java.util.function.BooleanSupplier;

/**
 * What the global hook has seen of the keyboard, for the insertion: whether modifiers are still
 * held, and when the user last edited (a key or click that is none of the app's hotkeys, which may
 * have cleared the field or moved the caret: the leading space then is not added). Made before the
 * dictation controller that reads it and fed by {@link GlobalHotkeys} once the hook runs.
 */
public final class KeyboardWatch implements KeyboardState {
    private volatile BooleanSupplier modifiers = () -> false;
    private volatile long lastEditMillis;
    /** Notified after every key release, for {@link #awaitShortcutKeysReleased}. */
    private final Object releases = new Object();

    /** Connects the hook's view of the held modifiers and hotkey keys. */
    void connect(BooleanSupplier shortcutKeysHeld) {
        modifiers = shortcutKeysHeld;
    }

    /** The user pressed a key or button that is not one of the app's hotkeys. */
    void edited() {
        lastEditMillis = System.currentTimeMillis();
    }

    /** A key or button came up: a paste waiting for the modifiers looks again. */
    void released() {
        synchronized (releases) {
            releases.notifyAll();
        }
    }

    /** Ends on the release event of the last such key (no polling: the paste follows it at once). */
    @Override
    public boolean awaitShortcutKeysReleased(long timeoutMillis) throws InterruptedException {
        long until = System.nanoTime() + timeoutMillis * 1_000_000;
        synchronized (releases) {
            while (shortcutKeysHeld()) {
                long left = until - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                releases.wait(Math.max(1, left / 1_000_000));
            }
            return true;
        }
    }

    @Override
    public boolean shortcutKeysHeld() {
        return modifiers.getAsBoolean();
    }

    @Override
    public long lastEditMillis() {
        return lastEditMillis;
    }
}
