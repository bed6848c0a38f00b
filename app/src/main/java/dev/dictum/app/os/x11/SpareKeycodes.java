package dev.dictum.app.os.x11;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;
import java.util.function.LongPredicate;

/**
 * Which keysym each of Dictum's spare keycodes (keycodes without symbols in the keyboard map) carries,
 * and when each was last typed. Pure bookkeeping: {@link X11Typer} sends the requests.
 *
 * <p>The one rule (issue 23, the lost "à" and "û" of session 5): <b>a keycode that carried a typed
 * character is not given another keysym until {@code reuseAfterNanos} after its last key event.</b>
 * An X client does not translate a key event when the server sends it but when it handles it, with the
 * keymap it holds then; Xlib marks its keymap stale as soon as it <i>reads</i> a MappingNotify, which
 * can sit in the same read as key events sent before the change, and refetches the map at the next
 * lookup. A change made while the target still has keys of the earlier mapping queued (a loaded
 * machine, a busy target) makes them resolve to the new keysym, or to nothing for a cleared keycode.
 * So keysyms stay on their keycodes between texts (the next text with the same characters changes no
 * mapping at all), the least recently typed keycode is taken when a new keysym needs one, and the
 * mappings are cleared only when Dictum quits.
 *
 * <p>A text never changes a keycode it typed itself: its own keys are the newest, so the rule above
 * could not be kept without a guess at how long the target takes to read them (a CJK sentence under
 * load took longer than 2 s in session 6, and the reused keycodes' characters came out wrong). A text
 * that needs more new keysyms than there are usable keycodes is not typed at all ({@link #needed}); one
 * that fits waits, at most, for keycodes of earlier texts, which {@link #plan} takes oldest first.
 */
final class SpareKeycodes {
    private final List<Integer> spare;
    private final long reuseAfterNanos;
    private final Map<Integer, Long> carried = new HashMap<>(); // keycode → the keysym Dictum put on it
    private final Map<Integer, Long> lastTyped = new HashMap<>(); // keycode → System.nanoTime() of its last key event

    /** @param spare the keycodes that had no symbols when Dictum started, in the order they are taken */
    SpareKeycodes(List<Integer> spare, long reuseAfterNanos) {
        if (spare.isEmpty()) {
            throw new IllegalArgumentException("the keyboard map has no spare keycode to type with");
        }
        this.spare = List.copyOf(spare);
        this.reuseAfterNanos = reuseAfterNanos;
    }

    /** How many keycodes there are to carry characters. */
    int size() {
        return spare.size();
    }

    /**
     * Brings the bookkeeping in line with the server's map as it is now: a keycode that no longer
     * carries what Dictum put on it (a layout switch cleared it, another program took it) is forgotten,
     * and is not used while it holds someone else's symbols.
     *
     * @param symsOf keycode → its keysyms in the current map
     */
    void reconcile(IntFunction<long[]> symsOf) {
        for (int kc : spare) {
            Long ours = carried.get(kc);
            long[] now = symsOf.apply(kc);
            if (ours != null && !(now.length > 0 && now[0] == ours)) {
                carried.remove(kc);
            }
        }
    }

    /** How many spare keycodes a text needs: one per distinct keysym the layout lacks. */
    static int needed(long[] keysyms, LongPredicate onLayout) {
        return (int) java.util.Arrays.stream(keysyms).filter(s -> !onLayout.test(s)).distinct().count();
    }

    /** How many spare keycodes Dictum may type with now ({@link #isOurs}). */
    int usable(IntPredicate usable) {
        return (int) spare.stream().filter(usable::test).count();
    }

    /** The keycodes Dictum may type with now: its spare keycodes, less those someone else has mapped. */
    boolean isOurs(int keycode, IntFunction<long[]> symsOf) {
        return spare.contains(keycode) && (carried.containsKey(keycode) || empty(symsOf.apply(keycode)));
    }

    /**
     * A run of text, from {@code from}, whose characters missing from the layout all have a keycode.
     *
     * @param end    the run is {@code keysyms[from..end)}; {@code end == from} when no keycode may be
     *               changed yet (see {@link #nanosUntilReady})
     * @param keyOf  keysym → keycode for every missing keysym of the run
     * @param remaps keycode → keysym: the mappings to change before the run's key events, in order
     */
    record Run(int end, Map<Long, Integer> keyOf, Map<Integer, Long> remaps) {
    }

    /**
     * Plans the longest run from {@code from}: a keysym already on a keycode keeps it; a new one takes an
     * empty keycode, else the least recently typed one whose last key is {@code reuseAfterNanos} old and
     * whose keysym the run does not use. Changes nothing: {@link #commit} does, once the remaps are sent.
     *
     * @param onLayout whether a keysym is typed with the layout's own key (no spare keycode needed)
     * @param usable   whether a spare keycode may be used now ({@link #isOurs})
     */
    Run plan(long[] keysyms, int from, LongPredicate onLayout, IntPredicate usable, long nowNanos) {
        Map<Long, Integer> on = new HashMap<>();
        carried.forEach((kc, sym) -> on.put(sym, kc));
        Map<Long, Integer> keyOf = new HashMap<>();
        Map<Integer, Long> remaps = new LinkedHashMap<>();
        int i = from;
        for (; i < keysyms.length; i++) {
            long sym = keysyms[i];
            if (onLayout.test(sym) || keyOf.containsKey(sym)) {
                continue;
            }
            Integer kc = on.get(sym);
            if (kc == null || !usable.test(kc) || remaps.containsKey(kc)) {
                kc = free(keyOf, remaps, usable, nowNanos);
                if (kc == null) {
                    break;
                }
                remaps.put(kc, sym);
            }
            keyOf.put(sym, kc);
        }
        return new Run(i, keyOf, remaps);
    }

    /** An empty keycode, else the least recently typed one that may change now and the run does not use. */
    private Integer free(Map<Long, Integer> keyOf, Map<Integer, Long> remaps, IntPredicate usable,
            long nowNanos) {
        Integer oldest = null;
        for (int kc : spare) {
            if (keyOf.containsValue(kc) || remaps.containsKey(kc) || !usable.test(kc)) {
                continue;
            }
            if (!carried.containsKey(kc)) {
                return kc;
            }
            long last = lastTyped.getOrDefault(kc, Long.MIN_VALUE);
            if (nowNanos - last >= reuseAfterNanos
                    && (oldest == null || last < lastTyped.getOrDefault(oldest, Long.MIN_VALUE))) {
                oldest = kc;
            }
        }
        return oldest;
    }

    /** Records a run's remaps as sent and its keycodes as typed at {@code nowNanos}. */
    void commit(Run run, long nowNanos) {
        carried.putAll(run.remaps());
        for (int kc : run.keyOf().values()) {
            lastTyped.put(kc, nowNanos);
        }
    }

    /**
     * How long from {@code nowNanos} until the least recently typed keycode may take another keysym
     * (0 when it may now, or when no keycode carries one): what a text waits for when the keycodes it
     * needs carried an earlier text's characters too recently, and what quitting waits for.
     */
    long nanosUntilReady(long nowNanos) {
        long oldest = Long.MAX_VALUE;
        for (int kc : carried.keySet()) {
            oldest = Math.min(oldest, lastTyped.getOrDefault(kc, Long.MIN_VALUE + reuseAfterNanos));
        }
        // differences, not comparisons, of nanoTime values: they may be negative or wrap
        return oldest == Long.MAX_VALUE ? 0 : Math.max(0, oldest + reuseAfterNanos - nowNanos);
    }

    /** The keycodes that carry a keysym of Dictum's, to clear at the end; forgets them. */
    List<Integer> takeCarried() {
        List<Integer> out = new ArrayList<>(carried.keySet());
        carried.clear();
        return out;
    }

    /** Whether every keysym of a keycode is NoSymbol. */
    static boolean empty(long[] syms) {
        for (long s : syms) {
            if (s != 0) {
                return false;
            }
        }
        return true;
    }
}
