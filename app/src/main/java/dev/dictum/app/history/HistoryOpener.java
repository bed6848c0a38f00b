package dev.dictum.app.history;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The app's history, opened on a thread of its own once the hotkey is live: SQLite's native library
 * (extracted from its jar at every start), its ~100 classes and the schema check took a tenth to a
 * quarter of launch → hotkey (issue 24 item 6), and nothing needs the history before a dictation
 * ends. {@link #get} waits for the opening (starting it if nobody has); null when it failed, as the
 * history was when it could not be opened at start.
 */
public final class HistoryOpener implements Supplier<HistoryStore>, AutoCloseable {
    private final Path file;
    private final Consumer<String> failed;
    private final AtomicBoolean started = new AtomicBoolean();
    private final CompletableFuture<HistoryStore> opened = new CompletableFuture<>();

    /**
     * @param failed told once, on the opening thread, why the history cannot be used (one clause)
     */
    public HistoryOpener(Path file, Consumer<String> failed) {
        this.file = file;
        this.failed = failed;
    }

    /** Starts opening the history in the background (once). */
    public void open() {
        if (started.compareAndSet(false, true)) {
            Thread.ofPlatform().daemon().name("dictum-history-open").start(() -> {
                try {
                    opened.complete(HistoryStore.open(file));
                } catch (RuntimeException | Error e) {
                    opened.complete(null);
                    failed.accept(e.getMessage() == null ? e.toString() : e.getMessage());
                }
            });
        }
    }

    /** The open history, waiting for it to open (not cut short by an interrupt: a dictation's row is worth it); null when it could not be opened. */
    @Override
    public HistoryStore get() {
        open();
        return opened.join(); // completed with null, never exceptionally, when the opening fails
    }

    /** Closes the history once it has opened (waiting for an opening in progress); nothing when it never started. */
    @Override
    public void close() {
        if (started.get()) {
            HistoryStore h = get();
            if (h != null) {
                h.close();
            }
        }
    }
}
