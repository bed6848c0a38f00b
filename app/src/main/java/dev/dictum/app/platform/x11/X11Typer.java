package dev.dictum.app.platform.x11;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import dev.dictum.app.insert.UnicodeTyper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Types any Unicode text on X11 through XTest, as xdotool does: each character's keysym is put on
 * a spare keycode (one with no symbols in the current keymap), then that keycode is pressed and
 * released. {@code java.awt.Robot} cannot do this: it only presses keys that exist in the layout
 * (ü, ß, é are dropped; — and ✓ throw).
 *
 * <p>A sentence takes a few milliseconds (issue 23): the distinct characters are mapped once per
 * text (characters a keycode still carries from the text before are not mapped again), all key
 * events go out in one flush, and the spare keycodes are cleared a second later, off the path the
 * user waits on. The server sends every client the MappingNotify of a change before the key events
 * that follow it on this connection, so the first keys need no wait; but a client translates a key
 * with the keymap it fetched last, so a keycode that carried a typed character is changed only once
 * the clients had time to translate it ({@link #MAPPING_SETTLE_MILLIS}: a text with more distinct
 * characters than spare keycodes, or a text right after another).
 */
public final class X11Typer implements UnicodeTyper, AutoCloseable {
    private static final long MAPPING_SETTLE_MILLIS = 40;
    private static final long CLEAR_AFTER_MILLIS = 1000;
    private final XDisplay display;
    private final List<Integer> spare = new ArrayList<>();
    private final int perKeycode;
    private final Map<Integer, Long> carried = new HashMap<>(); // spare keycode → the keysym it carries now
    private final ScheduledExecutorService clearer = Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().name("dictum-typer-clear").daemon().unstarted(r));
    private ScheduledFuture<?> clear;
    private long lastKeyNanos;

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
        if (clear != null) {
            clear.cancel(false);
        }
        Pointer d = display.handle;
        int[] cps = text.codePoints().toArray();
        try {
            for (int from = 0; from < cps.length; ) {
                int to = runThatFits(cps, from);
                Map<Long, Integer> keys = map(cps, from, to);
                for (int i = from; i < to; i++) {
                    int kc = keys.get(keysym(cps[i]));
                    Xlib.Xtst.INSTANCE.XTestFakeKeyEvent(d, kc, 1, 0);
                    Xlib.Xtst.INSTANCE.XTestFakeKeyEvent(d, kc, 0, 0);
                    if (delayMillis > 0) {
                        Xlib.INSTANCE.XFlush(d);
                        Thread.sleep(delayMillis);
                    }
                }
                Xlib.INSTANCE.XSync(d, 0); // one round trip: the server has every event of the run
                lastKeyNanos = System.nanoTime();
                from = to;
            }
        } finally {
            clear = clearer.schedule(this::clearSpare, CLEAR_AFTER_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    /** The end of the longest run from {@code from} whose distinct characters fit on the spare keycodes. */
    private int runThatFits(int[] cps, int from) {
        Set<Long> distinct = new LinkedHashSet<>();
        int i = from;
        while (i < cps.length && (distinct.contains(keysym(cps[i])) || distinct.size() < spare.size())) {
            distinct.add(keysym(cps[i]));
            i++;
        }
        return i;
    }

    /** Puts the run's characters on spare keycodes, keeping those already there; keysym → keycode. */
    private Map<Long, Integer> map(int[] cps, int from, int to) throws InterruptedException {
        Set<Long> needed = new LinkedHashSet<>();
        for (int i = from; i < to; i++) {
            needed.add(keysym(cps[i]));
        }
        Map<Long, Integer> keys = new HashMap<>();
        carried.forEach((kc, sym) -> {
            if (needed.contains(sym)) {
                keys.put(sym, kc);
            }
        });
        List<Integer> free = new ArrayList<>();
        for (int kc : spare) { // empty keycodes first: changing them needs no wait
            if (!carried.containsKey(kc)) {
                free.add(kc);
            }
        }
        for (int kc : spare) {
            if (carried.containsKey(kc) && !keys.containsValue(kc)) {
                free.add(kc);
            }
        }
        for (long sym : needed) {
            if (keys.containsKey(sym)) {
                continue;
            }
            int kc = free.removeFirst();
            if (carried.containsKey(kc)) {
                settle();
            }
            long[] syms = new long[perKeycode];
            syms[0] = sym;
            if (perKeycode > 1) {
                syms[1] = syms[0]; // the same with Shift held
            }
            Xlib.INSTANCE.XChangeKeyboardMapping(display.handle, kc, perKeycode, syms, 1);
            carried.put(kc, syms[0]);
            keys.put(sym, kc);
        }
        return keys;
    }

    /** Waits until clients have had time to translate the keys typed last. */
    private void settle() throws InterruptedException {
        long left = lastKeyNanos + MAPPING_SETTLE_MILLIS * 1_000_000 - System.nanoTime();
        if (left > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }

    /** Gives the spare keycodes back their emptiness (the keymap as it was). */
    private synchronized void clearSpare() {
        long[] none = new long[perKeycode];
        for (int kc : carried.keySet()) {
            Xlib.INSTANCE.XChangeKeyboardMapping(display.handle, kc, perKeycode, none, 1);
        }
        carried.clear();
        Xlib.INSTANCE.XSync(display.handle, 0);
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
        if (clear != null) {
            clear.cancel(false);
        }
        clearer.shutdownNow();
        clearSpare();
        display.close();
    }
}
