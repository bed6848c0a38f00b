package dev.dictum.app.os.x11;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import dev.dictum.app.os.UnicodeTyper;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Types any Unicode text on X11 through XTest, as xdotool does: each character's keysym is put on
 * a spare keycode (one with no symbols in the current keymap), then that keycode is pressed and
 * released. {@code java.awt.Robot} cannot do this: it only presses keys that exist in the layout
 * (ü, ß, é are dropped; — and ✓ throw).
 *
 * <p>Clients translate a key event with the keymap they fetched after the last MappingNotify, so
 * the keymap must not change between a key event and its translation: the distinct characters of
 * a text are mapped in one go onto as many spare keycodes as there are, the batch is typed, and
 * only after a pause is the next batch mapped. The spare keycodes are cleared again at the end.
 */
public final class X11Typer implements UnicodeTyper, AutoCloseable {
    private static final long MAPPING_SETTLE_MILLIS = 40;
    private final XDisplay display;
    private final List<Integer> spare = new ArrayList<>();
    private final int perKeycode;

    public X11Typer() {
        this.display = XDisplay.open();
        IntByReference min = new IntByReference();
        IntByReference max = new IntByReference();
        Xlib.INSTANCE.XDisplayKeycodes(display.handle, min, max);
        int first = min.getValue();
        int count = max.getValue() - first + 1;
        IntByReference per = new IntByReference();
        Pointer map = Xlib.INSTANCE.XGetKeyboardMapping(display.handle, (byte) first, count, per);
        perKeycode = per.getValue();
        long[] syms = map.getLongArray(0, count * perKeycode);
        Xlib.INSTANCE.XFree(map);
        for (int k = 0; k < count; k++) {
            boolean empty = true;
            for (int j = 0; j < perKeycode; j++) {
                empty &= syms[k * perKeycode + j] == 0;
            }
            if (empty) {
                spare.add(first + k);
            }
        }
        if (spare.isEmpty()) {
            display.close();
            throw new IllegalStateException("the keyboard map has no spare keycode to type with");
        }
    }

    @Override
    public synchronized void type(String text, int delayMillis) throws InterruptedException {
        Pointer d = display.handle;
        Map<Long, Integer> mapped = new HashMap<>();
        Deque<Integer> free = new ArrayDeque<>(spare);
        List<Integer> batch = new ArrayList<>();
        boolean remapped = false;
        try {
            for (int i = 0; i < text.length(); ) {
                int cp = text.codePointAt(i);
                i += Character.charCount(cp);
                long keysym = keysym(cp);
                Integer kc = mapped.get(keysym);
                if (kc == null) {
                    if (free.isEmpty()) {
                        typeBatch(batch, remapped, delayMillis);
                        batch.clear();
                        Thread.sleep(MAPPING_SETTLE_MILLIS); // let clients translate before the map changes
                        mapped.clear();
                        free.addAll(spare);
                    }
                    kc = free.pop();
                    long[] syms = new long[perKeycode];
                    syms[0] = keysym;
                    if (perKeycode > 1) {
                        syms[1] = keysym; // the same with Shift held
                    }
                    Xlib.INSTANCE.XChangeKeyboardMapping(d, kc, perKeycode, syms, 1);
                    mapped.put(keysym, kc);
                    remapped = true;
                }
                batch.add(kc);
            }
            typeBatch(batch, remapped, delayMillis);
            Thread.sleep(MAPPING_SETTLE_MILLIS);
        } finally {
            long[] none = new long[perKeycode];
            for (int kc : mapped.values()) {
                Xlib.INSTANCE.XChangeKeyboardMapping(d, kc, perKeycode, none, 1);
            }
            Xlib.INSTANCE.XSync(d, 0);
        }
    }

    private void typeBatch(List<Integer> keycodes, boolean remapped, int delayMillis) throws InterruptedException {
        Pointer d = display.handle;
        if (remapped) {
            Xlib.INSTANCE.XSync(d, 0);
            Thread.sleep(MAPPING_SETTLE_MILLIS);
        }
        for (int kc : keycodes) {
            Xlib.Xtst.INSTANCE.XTestFakeKeyEvent(d, kc, 1, 0);
            Xlib.Xtst.INSTANCE.XTestFakeKeyEvent(d, kc, 0, 0);
            Xlib.INSTANCE.XFlush(d);
            if (delayMillis > 0) {
                Thread.sleep(delayMillis);
            }
        }
        Xlib.INSTANCE.XSync(d, 0);
    }

    /** Latin-1 keysyms are the code point; Return and Tab have their own; the rest are 0x01000000 + code point. */
    static long keysym(int cp) {
        return switch (cp) {
            case '\n', '\r' -> 0xff0d;
            case '\t' -> 0xff09;
            default -> cp >= 0x20 && cp <= 0x7e || cp >= 0xa0 && cp <= 0xff ? cp : 0x01000000L | cp;
        };
    }

    @Override
    public synchronized void close() {
        display.close();
    }
}
