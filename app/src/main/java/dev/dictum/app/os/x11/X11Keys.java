package dev.dictum.app.os.x11;

import com.sun.jna.Pointer;
import dev.dictum.app.os.Keystrokes;
import java.util.Locale;

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
            codes[i] = keycode(map, keys[i]); // all looked up before the first event: a missing key sends nothing
        }
        for (int code : codes) {
            Xlib.Xtst.INSTANCE.XTestFakeKeyEvent(d, code, 1, 0);
        }
        for (int i = codes.length - 1; i >= 0; i--) {
            Xlib.Xtst.INSTANCE.XTestFakeKeyEvent(d, codes[i], 0, 0);
        }
        Xlib.INSTANCE.XSync(d, 0);
    }

    static int keycode(X11Keymap map, Key k) {
        for (long sym : keysyms(k)) {
            int code = map.keycodeOf(sym);
            if (code != 0) {
                return code;
            }
        }
        throw new IllegalStateException("the keyboard map has no " + k.name().toLowerCase(Locale.ROOT) + " key");
    }

    /**
     * X11's keysyms for a key (X11/keysymdef.h), the first one the map has wins: the left modifier, else
     * the right one (a layout option may have moved one away); lower-case v; Return, else the keypad's Enter.
     */
    static long[] keysyms(Key k) {
        return switch (k) {
            case CONTROL -> new long[] {0xffe3, 0xffe4}; // Control_L, Control_R
            case SHIFT -> new long[] {0xffe1, 0xffe2}; // Shift_L, Shift_R
            case INSERT -> new long[] {0xff63};
            case V -> new long[] {0x76};
            case ENTER -> new long[] {0xff0d, 0xff8d}; // Return, KP_Enter
        };
    }

    @Override
    public synchronized void close() {
        display.close();
    }
}
