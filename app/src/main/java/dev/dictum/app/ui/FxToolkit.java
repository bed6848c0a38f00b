package dev.dictum.app.ui;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javafx.application.Platform;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JavaFX, started after the hotkey is live (issue 24 item 6: its toolkit, GTK included, was a fifth of
 * launch → hotkey, and only the windows use it: the tray, its menu and the indicator are AWT and
 * Swing). Work for the FX thread that comes before the toolkit is up waits here, in order, and runs
 * first once it is. Process-wide, as JavaFX itself is.
 */
final class FxToolkit {
    private static final Logger LOG = LoggerFactory.getLogger(FxToolkit.class);
    /**
     * JavaFX warns that it runs from the class path (as ./dictum starts it); that is intended here. Held:
     * java.util.logging keeps loggers weakly, and a level set on a collected one is lost.
     */
    private static final java.util.logging.Logger FX_LOG = java.util.logging.Logger.getLogger("javafx");
    private static final List<Runnable> PENDING = new ArrayList<>(); // guarded by FxToolkit.class
    private static boolean started; // guarded by FxToolkit.class
    private static volatile boolean up;

    private FxToolkit() {
    }

    /**
     * Starts the toolkit on a thread of its own (once); {@code whenUp} runs on the FX thread before
     * anything {@link #later} queued.
     *
     * @param failed told why, when the toolkit cannot start (the windows are then unavailable)
     */
    static void start(Runnable whenUp, Consumer<String> failed) {
        synchronized (FxToolkit.class) {
            if (started) {
                return;
            }
            started = true;
        }
        Thread.ofPlatform().daemon().name("dictum-fx-start").start(() -> {
            FX_LOG.setLevel(java.util.logging.Level.SEVERE);
            Platform.setImplicitExit(false);
            try {
                Platform.startup(() -> {
                    whenUp.run();
                    List<Runnable> queued;
                    synchronized (FxToolkit.class) {
                        up = true;
                        queued = List.copyOf(PENDING);
                        PENDING.clear();
                    }
                    for (Runnable r : queued) { // later() calls from now on queue behind these
                        try {
                            r.run();
                        } catch (RuntimeException e) {
                            LOG.error("window work queued before JavaFX was up failed", e);
                        }
                    }
                });
            } catch (RuntimeException | LinkageError e) {
                LOG.error("JavaFX could not start: {}", e.toString());
                failed.accept(e.getMessage() == null ? e.toString() : e.getMessage());
            }
        });
    }

    /** Runs {@code r} on the FX thread, once the toolkit is up. */
    static void later(Runnable r) {
        synchronized (FxToolkit.class) {
            if (!up) {
                PENDING.add(r);
                return;
            }
        }
        Platform.runLater(r);
    }

    /** Ends the toolkit if it started. */
    static void exit() {
        if (up) {
            Platform.exit();
        }
    }
}
