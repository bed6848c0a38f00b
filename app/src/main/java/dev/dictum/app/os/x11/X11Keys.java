package dev.dictum.app.os.x11;

import com.sun.jna.Pointer;
import dev.dictum.app.os.Keystrokes;

/**
 * The paste keystroke and Enter through XTest on a connection of Dictum's own: one keyboard-map read
 * (the user may have switched layouts), the key events, one {@code XSync} (when it returns the server
 * has generated them). The same keystroke through AWT's Robot took 13-33 ms of the release-to-text
 * (session 15's end-to-end logs: "delay and keystroke 33.0 ms" with no delay), because it goes through
 * the toolkit's lock and connection, which its own thread holds while it handles events.
 */
public final class X11Keys implements Keystrokes, AutoCloseable {
    private final XDisplay display = XDisplay.open();

    @Override
    public synchronized void chord(Key... keys) {
        Pointer d = display.handle;
        X11Keymap map = X11Keymap.read(d);
        int[] codes = new int[keys.length];
        for (int i = 0; i < keys.length; i++) {
            codes[i] = map.keycodeOf(keysym(keys[i]));
            if (codes[i] == 0) {
                throw new IllegalStateException("the keyboard map has no " + keys[i].name().toLowerCase() + " key");
            }
        }
        for (int code : codes) {
            Xlib.Xtst.INSTANCE.XTestFakeKeyEvent(d, code, 1, 0);
        }
        for (int i = codes.length - 1; i >= 0; i--) {
            Xlib.Xtst.INSTANCE.XTestFakeKeyEvent(d, codes[i], 0, 0);
        }
        Xlib.INSTANCE.XSync(d, 0);
    }

    /** X11's keysyms (X11/keysymdef.h): the left modifiers, lower-case v. */
    static long keysym(Key k) {
        return switch (k) {
            case CONTROL -> 0xffe3; // Control_L
            case SHIFT -> 0xffe1; // Shift_L
            case INSERT -> 0xff63;
            case V -> 0x76;
            case ENTER -> 0xff0d; // Return
        };
    }

    @Override
    public synchronized void close() {
        display.close();
    }
}
