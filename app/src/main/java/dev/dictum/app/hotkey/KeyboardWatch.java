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

    /** Connects the hook's view of the held modifiers. */
    void connect(BooleanSupplier modifiersHeld) {
        modifiers = modifiersHeld;
    }

    /** The user pressed a key or button that is not one of the app's hotkeys. */
    void edited() {
        lastEditMillis = System.currentTimeMillis();
    }

    @Override
    public boolean modifiersHeld() {
        return modifiers.getAsBoolean();
    }

    @Override
    public long lastEditMillis() {
        return lastEditMillis;
    }
}
