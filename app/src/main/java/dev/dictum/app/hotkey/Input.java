package dev.dictum.app.hotkey;

import dev.dictum.app.os.Modifier;
/**
 * One physical key or mouse button, as the global hook reports it.
 *
 * @param kind KEY (code: a JNativeHook virtual key code, {@code NativeKeyEvent.VC_*}) or MOUSE
 *             (code: a button number, 1 left, 2 right, 3 middle, 4 and 5 the side buttons)
 * @param code as above
 */
public record Input(Kind kind, int code) {
    public enum Kind { KEY, MOUSE }

    public static Input key(int code) {
        return new Input(Kind.KEY, code);
    }

    public static Input mouse(int button) {
        return new Input(Kind.MOUSE, button);
    }

    /** The modifier this key is, or null. */
    public Modifier modifier() {
        return kind == Kind.KEY ? Modifier.ofKeyCode(code) : null;
    }

    public String displayName() {
        return kind == Kind.MOUSE ? "Mouse" + code : KeyNames.name(code);
    }
}
