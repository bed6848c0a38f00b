package dev.dictum.app.settings;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

/**
 * The settings the running app uses: one current snapshot, changed only through
 * {@link #update}, which validates, saves atomically and then tells every listener (tray,
 * hotkeys, capture, settings window), so a change applies without a restart.
 */
public final class LiveSettings {

    /** Called after a change was saved; on the thread that made the change. */
    public interface Listener {
        void changed(Settings before, Settings after);
    }

    private final SettingsStore store;
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private volatile Settings current;

    public LiveSettings(SettingsStore store, Settings initial) {
        this.store = store;
        this.current = initial;
    }

    public Settings current() {
        return current;
    }

    public SettingsStore store() {
        return store;
    }

    public void addListener(Listener l) {
        listeners.add(l);
    }

    public void removeListener(Listener l) {
        listeners.remove(l);
    }

    /**
     * Applies a change, saves it and notifies the listeners.
     *
     * @throws IllegalArgumentException with the first invalid value's reason (nothing changes)
     * @throws java.io.UncheckedIOException when saving failed (nothing changes)
     */
    public Settings update(UnaryOperator<Settings> change) {
        Settings before;
        Settings after;
        synchronized (this) {
            before = current;
            after = change.apply(before);
            if (after.equals(before)) {
                return before;
            }
            store.save(after);
            current = after;
        }
        for (Listener l : listeners) {
            l.changed(before, after);
        }
        return after;
    }
}
