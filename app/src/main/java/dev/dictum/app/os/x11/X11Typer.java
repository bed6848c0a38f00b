package dev.dictum.app.os.x11;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.dictum.app.os.UnicodeTyper;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Types any Unicode text on X11 through XTest. A character the keyboard map has at its first or
 * Shift level (the layout's letters, digits and punctuation) is typed with its own key, Shift held
 * for the second level; any other is put on a spare keycode (one with no symbols), as xdotool does.
 * {@code java.awt.Robot} cannot do this: it only presses keys that exist in the layout (ü, ß, é are
 * dropped; — and ✓ throw).
 *
 * <p>A sentence takes a few milliseconds (issue 23): one read of the map, the text's new characters
 * put on spare keycodes before its first key, every key event in one buffer, one {@code XSync} (when
 * it returns the server has generated every event: the app's "last typed key"). Characters stay on
 * their keycodes after the text: {@link SpareKeycodes} says why a keycode is changed only long after
 * its last key ({@link #REUSE_AFTER_MILLIS}), which a text waits for only when the keycodes it needs
 * carried an earlier text's characters less than that ago. A text with more new characters than there
 * are spare keycodes (a long CJK sentence) is refused before its first key: the caller pastes it. {@code delayMillis} above 0 is the per-character mode, for a
 * target that drops keys that come too fast: a flush and a pause after each character.
 */
public final class X11Typer implements UnicodeTyper, AutoCloseable {
    /**
     * How long a keycode keeps the keysym it was typed with before it may carry another: far longer than
     * a target takes to handle its keys, even on a loaded machine (session 5 lost characters under load
     * with a keycode cleared 1 s after its text, and with one reused 40 ms after its last key).
     */
    static final long REUSE_AFTER_MILLIS = 2000;
    /**
     * How long after a map change the typer makes it a second time, before the text's keys, when its
     * previous change is less than {@link #REUSE_AFTER_MILLIS} old. libX11 (XKB) notes each map change
     * it reads and, at its next key lookup, fetches what it noted; a change it reads while that fetch's
     * reply is being read is forgotten with the fetched ones, though the reply predates it. Two texts
     * back to back lost the second one's new characters that way (session 16's CI: "Gre aus Kln", the
     * Tk target's keysyms NoSymbol; 4-8 % of runs under load, 0 of 100 with this repeat). The second
     * notice comes after the target's fetch has ended unless the target stalls longer than this
     * between its fetch's reply and reading it.
     */
    static final long CHANGE_AGAIN_AFTER_MILLIS = 30;
    private long lastChange = System.nanoTime() - TimeUnit.DAYS.toNanos(1); // System.nanoTime() of the last map change
    private static final long SHIFT_L = 0xffe1;
    private static final int XKB_USE_CORE_KBD = 0x100;
    private final XDisplay display;
    private final SpareKeycodes keycodes;
    private final int perKeycode;
    private final Memory xkbState = new Memory(32); // an XkbStateRec (18 bytes)

    public X11Typer() {
        this.display = XDisplay.open();
        X11Keymap map = X11Keymap.read(display.handle);
        perKeycode = map.perKeycode();
        try {
            keycodes = new SpareKeycodes(map.emptyKeycodes(), TimeUnit.MILLISECONDS.toNanos(REUSE_AFTER_MILLIS));
        } catch (IllegalArgumentException e) {
            display.close();
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    @Override
    public synchronized void type(String text, int delayMillis) throws InterruptedException, CannotTypeException {
        Pointer d = display.handle;
        long[] keysyms = text.replace("\r\n", "\n").codePoints().mapToLong(X11Typer::keysym).toArray();
        X11Keymap map = X11Keymap.read(d);
        keycodes.reconcile(map::symsOf);
        Map<Long, Integer> layout = layoutKeys(map);
        Integer shift = layout.get(SHIFT_L);
        int needed = SpareKeycodes.needed(keysyms, layout::containsKey);
        int usable = keycodes.usable(kc -> keycodes.isOurs(kc, map::symsOf));
        if (needed > usable) {
            throw new CannotTypeException("the text has " + needed + " characters the keyboard layout lacks and only "
                    + usable + " spare keys can carry them");
        }
        for (int from = 0; from < keysyms.length; ) {
            SpareKeycodes.Run run = keycodes.plan(keysyms, from, layout::containsKey,
                    kc -> keycodes.isOurs(kc, map::symsOf), System.nanoTime());
            if (run.end() == from) { // every keycode was typed too recently to change: the one slow case
                long wait = keycodes.nanosUntilReady(System.nanoTime());
                if (wait == 0) {
                    throw new IllegalStateException("no spare keycode is free to type with (another program took them)");
                }
                TimeUnit.NANOSECONDS.sleep(wait);
                continue;
            }
            X11Keymap now = from == 0 ? map : X11Keymap.read(d); // a later run: the map has Dictum's earlier remaps
            remap(run.remaps(), now);
            keycodes.commit(run, System.nanoTime()); // known as ours even if the typing below is interrupted
            remapAgainIfRecent(run.remaps(), now);
            for (int i = from; i < run.end(); i++) {
                Integer at = layout.get(keysyms[i]);
                press(at != null ? at >> 1 : run.keyOf().get(keysyms[i]), at != null && (at & 1) == 1 ? shift : null);
                if (delayMillis > 0) {
                    Xlib.INSTANCE.XFlush(d);
                    Thread.sleep(delayMillis);
                }
            }
            Xlib.INSTANCE.XSync(d, 0); // one round trip: the server has generated every key event of the run
            keycodes.commit(run, System.nanoTime()); // the time of its last key
            from = run.end();
        }
    }

    /**
     * The layout's own keys, or none when the keyboard is not in its first group (a second layout, such
     * as Russian beside English, is active): the map's first columns are the first group's, so every
     * character then goes on a spare keycode, whose single group applies in every group.
     */
    private Map<Long, Integer> layoutKeys(X11Keymap map) {
        if (Xlib.INSTANCE.XkbGetState(display.handle, XKB_USE_CORE_KBD, xkbState) == 0 && xkbState.getByte(0) != 0) {
            return Map.of();
        }
        Map<Long, Integer> layout = map.layout(kc -> keycodes.isOurs(kc, map::symsOf));
        if (!layout.containsKey(SHIFT_L)) { // no Shift key: second-level characters go on spare keycodes too
            layout.values().removeIf(at -> (at & 1) == 1);
        }
        return layout;
    }

    private void press(int keycode, Integer shift) {
        Pointer d = display.handle;
        if (shift != null) {
            Xlib.Xtst.INSTANCE.XTestFakeKeyEvent(d, shift >> 1, 1, 0);
        }
        Xlib.Xtst.INSTANCE.XTestFakeKeyEvent(d, keycode, 1, 0);
        Xlib.Xtst.INSTANCE.XTestFakeKeyEvent(d, keycode, 0, 0);
        if (shift != null) {
            Xlib.Xtst.INSTANCE.XTestFakeKeyEvent(d, shift >> 1, 0, 0);
        }
    }

    /** The second notice of a change ({@link #CHANGE_AGAIN_AFTER_MILLIS}) when the change before it is recent. */
    private void remapAgainIfRecent(Map<Integer, Long> remaps, X11Keymap map) throws InterruptedException {
        if (remaps.isEmpty()) {
            return;
        }
        if (System.nanoTime() - lastChange < TimeUnit.MILLISECONDS.toNanos(REUSE_AFTER_MILLIS)) {
            Xlib.INSTANCE.XFlush(display.handle);
            Thread.sleep(CHANGE_AGAIN_AFTER_MILLIS);
            remap(remaps, map);
        }
        lastChange = System.nanoTime();
    }

    /**
     * Puts each keysym on its keycode, at the plain and the Shift level (a Shift still held changes
     * nothing), in <b>one</b> request over the keycodes they span, the others between rewritten as
     * {@code map} holds them. One request is one MappingNotify: with one request per keycode a Tk
     * target on Xvfb translated the text's keys with only the first change applied, the rest as the
     * keycodes' earlier keysyms or as nothing (X11TyperTest, session 7: "Ça va? uvre, nave, djà vu.").
     */
    private void remap(Map<Integer, Long> remaps, X11Keymap map) {
        if (remaps.isEmpty()) {
            return;
        }
        int first = remaps.keySet().stream().mapToInt(Integer::intValue).min().orElseThrow();
        int last = remaps.keySet().stream().mapToInt(Integer::intValue).max().orElseThrow();
        long[] syms = new long[(last - first + 1) * perKeycode];
        for (int kc = first; kc <= last; kc++) {
            Long sym = remaps.get(kc);
            long[] row = sym != null ? new long[perKeycode] : map.symsOf(kc);
            if (sym != null) {
                row[0] = sym;
                if (perKeycode > 1) {
                    row[1] = sym;
                }
            }
            System.arraycopy(row, 0, syms, (kc - first) * perKeycode, perKeycode);
        }
        Xlib.INSTANCE.XChangeKeyboardMapping(display.handle, first, perKeycode, syms, last - first + 1);
    }

    /** How many keycodes can carry characters the layout lacks (for tests). */
    int spareKeycodes() {
        return keycodes.size();
    }

    /** Latin-1 keysyms are the code point; Return and Tab have their own; the rest are 0x01000000 + code point. */
    static long keysym(int cp) {
        return switch (cp) {
            case '\n', '\r' -> 0xff0d;
            case '\t' -> 0xff09;
            default -> cp >= 0x20 && cp <= 0x7e || cp >= 0xa0 && cp <= 0xff ? cp : 0x01000000L | cp;
        };
    }

    /**
     * Gives the spare keycodes back their emptiness (the keymap as it was), once the last text's keys
     * are {@link #REUSE_AFTER_MILLIS} old, so a target still handling them translates them right.
     */
    @Override
    public synchronized void close() {
        try {
            // With nothing carried there is nothing to wait for (session 6's close computed
            // Long.MIN_VALUE - now there, which wrapped to centuries: a quit that never ended).
            long wait = keycodes.nanosUntilReady(System.nanoTime());
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long[] none = new long[perKeycode];
        for (int kc : keycodes.takeCarried()) {
            Xlib.INSTANCE.XChangeKeyboardMapping(display.handle, kc, perKeycode, none, 1);
        }
        Xlib.INSTANCE.XSync(display.handle, 0);
        display.close();
    }
}
