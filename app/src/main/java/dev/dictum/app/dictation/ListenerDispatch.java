package dev.dictum.app.dictation;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the {@link DictationController}'s listeners (the indicator, the tray icon, the control
 * window, the sound cues) what happened, in the order it happened, on a thread of its own. The
 * release path only queues: run on the hotkey's thread and the worker's, the listeners took 2–30 ms
 * between the key coming up and the text, twice (measured on Xvfb, issue 23: "asked 4–36 ms after
 * the release", with a pass at the pause already done). One thread keeps the order, so the views
 * never show "Transcribing…" after the text is in.
 */
final class ListenerDispatch {
    private static final Logger LOG = LoggerFactory.getLogger(ListenerDispatch.class);
    private final List<DictationController.Listener> listeners = new CopyOnWriteArrayList<>();
    private final ExecutorService thread = Executors.newSingleThreadExecutor(
            r -> Thread.ofPlatform().name("dictum-status").daemon().unstarted(r));

    void add(DictationController.Listener l) {
        listeners.add(l);
    }

    void changed(DictationController.Status status) {
        each(l -> l.changed(status));
    }

    void partial(String text) {
        each(l -> l.partial(text));
    }

    void ended(DictationController.Ending how) {
        each(l -> l.recordingEnded(how));
    }

    /** Tells what is queued, then ends the thread. */
    void close() {
        thread.shutdown();
    }

    private void each(Consumer<DictationController.Listener> call) {
        thread.execute(() -> {
            for (DictationController.Listener l : listeners) {
                try {
                    call.accept(l);
                } catch (RuntimeException e) { // a view's failure must not stop the others or the dictation
                    LOG.warn("a listener failed: {}", e.toString());
                }
            }
        });
    }
}
