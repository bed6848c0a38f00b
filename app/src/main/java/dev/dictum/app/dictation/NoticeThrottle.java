package dev.dictum.app.dictation;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * At most one notice on screen per second: the first is shown at once; what arrives within the
 * second after it waits and is then shown as one notice, repeats merged with a count ("Too short:
 * hold the hotkey while you speak (×12)") and different ones summed up ("… and 3 more"), the most
 * severe first. Under hotkey spam the user sees a notice a second, not thirty in three seconds.
 * Pure logic with a clock: the caller shows what {@link #offer} and {@link #due} return, and calls
 * {@link #due} at {@link #nextDueMillis}.
 */
public final class NoticeThrottle {
    public static final long GAP_MILLIS = 1000;

    /** One notice to show now. */
    public record Shown(Notifier.Kind kind, String message) {
    }

    private record Waiting(Notifier.Kind kind, String message, int count) {
    }

    private final LongSupplier clockMillis;
    private final List<Waiting> waiting = new ArrayList<>(); // guarded by this
    private long lastShownAt = Long.MIN_VALUE / 2; // guarded by this
    private String lastShown; // guarded by this

    public NoticeThrottle(LongSupplier clockMillis) {
        this.clockMillis = clockMillis;
    }

    /** A new notice: returned to show now, or null when it waits (see {@link #nextDueMillis}). */
    public synchronized Shown offer(Notifier.Kind kind, String message) {
        long now = clockMillis.getAsLong();
        if (waiting.isEmpty() && now - lastShownAt >= GAP_MILLIS) {
            return show(kind, message, now);
        }
        for (int i = 0; i < waiting.size(); i++) {
            Waiting w = waiting.get(i);
            if (w.message().equals(message)) {
                waiting.set(i, new Waiting(severer(w.kind(), kind), message, w.count() + 1));
                return null;
            }
        }
        waiting.add(new Waiting(kind, message, 1));
        return null;
    }

    /** When {@link #due} has something to show, or -1 when nothing waits. */
    public synchronized long nextDueMillis() {
        return waiting.isEmpty() ? -1 : lastShownAt + GAP_MILLIS;
    }

    /** What waited, as one notice, once its second has come; else null. */
    public synchronized Shown due() {
        long now = clockMillis.getAsLong();
        if (waiting.isEmpty() || now - lastShownAt < GAP_MILLIS) {
            return null;
        }
        Waiting top = waiting.getFirst();
        for (Waiting w : waiting) {
            if (w.kind().ordinal() > top.kind().ordinal()) {
                top = w;
            }
        }
        // A repeat of what is on screen counts the one shown: "(×3)" after three identical notices.
        int count = top.count() + (top.message().equals(lastShown) ? 1 : 0);
        int others = waiting.size() - 1;
        String text = top.message() + (count > 1 ? " (\u00d7" + count + ")" : "")
                + (others > 0 ? " \u2026 and " + others + " more" : "");
        waiting.clear();
        return show(top.kind(), text, now, top.message());
    }

    private Shown show(Notifier.Kind kind, String message, long now) {
        return show(kind, message, now, message);
    }

    private Shown show(Notifier.Kind kind, String text, long now, String original) {
        lastShownAt = now;
        lastShown = original;
        return new Shown(kind, text);
    }

    private static Notifier.Kind severer(Notifier.Kind a, Notifier.Kind b) {
        return a.ordinal() >= b.ordinal() ? a : b;
    }
}
