package dev.dictum.app.os.x11;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import dev.dictum.app.os.UnicodeTyper;
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
 * Types any Unicode text on X11 through XTest. A character the keyboard map already has (at its
 * first or Shift level: the layout's letters, digits and punctuation) is typed with its own key,
 * Shift held for the second level; any other is put on a spare keycode (one with no symbols), as
 * xdotool does. {@code java.awt.Robot} cannot do this: it only presses keys that exist in the layout
 * (ü, ß, é are dropped; — and ✓ throw).
 *
 * <p>A sentence takes a few milliseconds (issue 23): the map is read once per text, the characters
 * it lacks are put on spare keycodes once (those a keycode still carries from the text before are
 * kept), every key event goes out in one flush, and the spare keycodes are cleared a second later,
 * off the path the user waits on. The server sends every client the MappingNotify of a change before
 * the key events that follow it on this connection, so the first keys need no wait; but a client
 * translates a key with the keymap it fetched last, so a keycode that carried a typed character is
 * changed only once the clients had time to translate it ({@link #MAPPING_SETTLE_MILLIS}: a text with
 * more missing characters than spare keycodes, or one right after another; a loaded machine can
 * take longer, which is why the layout's own keys come first).
 */
public final class X11Typer implements UnicodeTyper, AutoCloseable {
    private static final long MAPPING_SETTLE_MILLIS = 40;
    private static final long CLEAR_AFTER_MILLIS = 1000;
    private static final long SHIFT_L = 0xffe1;
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
        Keymap map = keymap();
        perKeycode = map.perKeycode();
        for (int k = 0; k < map.count(); k++) {
            boolean empty = true;
            for (int j = 0; j < perKeycode; j++) {
                empty &= map.syms()[k * perKeycode + j] == 0;
            }
            if (empty) {
                spare.add(map.first() + k);
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
        Map<Long, Integer> layout = layout();
        Integer shift = layout.get(SHIFT_L);
        if (shift == null) { // no Shift key: second-level characters go on spare keycodes too
            layout.values().removeIf(at -> (at & 1) == 1);
        }
        try {
            for (int from = 0; from < cps.length; ) {
                int to = runThatFits(cps, from, layout);
                Map<Long, Integer> keys = map(cps, from, to, layout);
                for (int i = from; i < to; i++) {
                    long sym = keysym(cps[i]);
                    Integer at = layout.get(sym);
                    boolean shifted = at != null && (at & 1) == 1;
                    int kc = at != null ? at >> 1 : keys.get(sym);
                    if (shifted) {
                        Xlib.Xtst.INSTANCE.XTestFakeKeyEvent(d, shift >> 1, 1, 0);
                    }
                    Xlib.Xtst.INSTANCE.XTestFakeKeyEvent(d, kc, 1, 0);
                    Xlib.Xtst.INSTANCE.XTestFakeKeyEvent(d, kc, 0, 0);
                    if (shifted) {
                        Xlib.Xtst.INSTANCE.XTestFakeKeyEvent(d, shift >> 1, 0, 0);
                    }
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

    /**
     * The keyboard map's own keys, spare keycodes left out: keysym → keycode × 2 + level (0, or 1 with
     * Shift), the first level preferred. Read at each text: the user may have switched layouts.
     */
    private Map<Long, Integer> layout() {
        Keymap map = keymap();
        int first = map.first();
        int count = map.count();
        long[] syms = map.syms();
        Map<Long, Integer> out = new HashMap<>();
        for (int level = 0; level < Math.min(2, map.perKeycode()); level++) {
            for (int k = 0; k < count; k++) {
                long sym = syms[k * map.perKeycode() + level];
                long only = syms[k * map.perKeycode()];
                if (map.perKeycode() > 1 && syms[k * map.perKeycode() + 1] == 0 && Character.isLetter((int) only)
                        && only < 0x80) { // a letter alone stands for (lower, upper), as the protocol says
                    sym = level == 0 ? Character.toLowerCase((int) only) : Character.toUpperCase((int) only);
                }
                if (sym != 0 && !spare.contains(first + k)) {
                    out.putIfAbsent(sym, (first + k) * 2 + level);
                }
            }
        }
        return out;
    }

    /** The core keyboard map: keycodes first .. first + count - 1, perKeycode keysyms each. */
    private record Keymap(int first, int count, int perKeycode, long[] syms) {
    }

    private Keymap keymap() {
        IntByReference min = new IntByReference();
        IntByReference max = new IntByReference();
        Xlib.INSTANCE.XDisplayKeycodes(display.handle, min, max);
        int first = min.getValue();
        int count = max.getValue() - first + 1;
        IntByReference per = new IntByReference();
        Pointer map = Xlib.INSTANCE.XGetKeyboardMapping(display.handle, (byte) first, count, per);
        long[] syms = map.getLongArray(0, count * per.getValue());
        Xlib.INSTANCE.XFree(map);
        return new Keymap(first, count, per.getValue(), syms);
    }

    /** The end of the longest run from {@code from} whose characters missing from the layout fit on the spare keycodes. */
    private int runThatFits(int[] cps, int from, Map<Long, Integer> layout) {
        Set<Long> distinct = new LinkedHashSet<>();
        int i = from;
        for (; i < cps.length; i++) {
            long sym = keysym(cps[i]);
            if (!layout.containsKey(sym) && !distinct.contains(sym)) {
                if (distinct.size() == spare.size()) {
                    break;
                }
                distinct.add(sym);
            }
        }
        return i;
    }

    /** Puts the run's characters missing from the layout on spare keycodes, keeping those already there; keysym → keycode. */
    private Map<Long, Integer> map(int[] cps, int from, int to, Map<Long, Integer> layout) throws InterruptedException {
        Set<Long> needed = new LinkedHashSet<>();
        for (int i = from; i < to; i++) {
            if (!layout.containsKey(keysym(cps[i]))) {
                needed.add(keysym(cps[i]));
            }
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
