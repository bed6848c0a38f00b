package dev.dictum.app.os.x11;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * The core keyboard map as the server holds it now: keycodes {@code first .. first + count - 1}, each
 * with {@code perKeycode} keysyms (column 0 plain, column 1 with Shift, for the first group).
 * One round trip; read again for each text, because the user may have switched layouts.
 */
record X11Keymap(int first, int count, int perKeycode, long[] syms) {

    static X11Keymap read(Pointer display) {
        IntByReference min = new IntByReference();
        IntByReference max = new IntByReference();
        Xlib.INSTANCE.XDisplayKeycodes(display, min, max);
        int first = min.getValue();
        int count = max.getValue() - first + 1;
        IntByReference per = new IntByReference();
        Pointer map = Xlib.INSTANCE.XGetKeyboardMapping(display, (byte) first, count, per);
        long[] syms = map.getLongArray(0, count * per.getValue());
        Xlib.INSTANCE.XFree(map);
        return new X11Keymap(first, count, per.getValue(), syms);
    }

    /** The keysyms of one keycode (all NoSymbol outside the map's range). */
    long[] symsOf(int keycode) {
        int k = keycode - first;
        if (k < 0 || k >= count) {
            return new long[perKeycode];
        }
        return Arrays.copyOfRange(syms, k * perKeycode, (k + 1) * perKeycode);
    }

    /**
     * The layout's own keys: keysym → keycode × 2 + level (0 plain, 1 with Shift), the plain level and
     * the lower keycode preferred, the keycodes {@code skip} says to leave out (Dictum's spare ones).
     */
    Map<Long, Integer> layout(IntPredicate skip) {
        Map<Long, Integer> out = new HashMap<>();
        for (int level = 0; level < Math.min(2, perKeycode); level++) {
            for (int k = 0; k < count; k++) {
                if (skip.test(first + k)) {
                    continue;
                }
                long sym = syms[k * perKeycode + level];
                long only = syms[k * perKeycode];
                if (perKeycode > 1 && syms[k * perKeycode + 1] == 0 && only < 0x80 && Character.isLetter((int) only)) {
                    // a letter alone stands for (lower, upper), as the core protocol says
                    sym = level == 0 ? Character.toLowerCase((int) only) : Character.toUpperCase((int) only);
                }
                if (sym != 0) {
                    out.putIfAbsent(sym, (first + k) * 2 + level);
                }
            }
        }
        return out;
    }

    /**
     * The key that carries {@code keysym}: the lowest keycode with it in its first column, else in any
     * column (a second layout's group); 0 when no key has it.
     */
    int keycodeOf(long keysym) {
        for (int column = 0; column < perKeycode; column++) {
            for (int k = 0; k < count; k++) {
                if (syms[k * perKeycode + column] == keysym) {
                    return first + k;
                }
            }
        }
        return 0;
    }

    /** The keycodes with no symbol at all, in order. */
    java.util.List<Integer> emptyKeycodes() {
        java.util.List<Integer> out = new java.util.ArrayList<>();
        for (int k = 0; k < count; k++) {
            if (SpareKeycodes.empty(symsOf(first + k))) {
                out.add(first + k);
            }
        }
        return out;
    }
}
