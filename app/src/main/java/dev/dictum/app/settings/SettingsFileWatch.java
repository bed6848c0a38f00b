package dev.dictum.app.settings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies edits of {@code settings.json} made outside the app (an editor, a script, a dotfiles sync)
 * while it runs, as if made in the settings window: the file is polled every second (one small daemon
 * thread; no inotify, which is Linux-only and counts against the user's watch limit) and a changed
 * file that reads cleanly goes through {@link LiveSettings#update}. A file with a problem is left for
 * the next start's checks (it may be half-written); the app's own saves read back equal and change nothing.
 */
public final class SettingsFileWatch {
    private static final Logger LOG = LoggerFactory.getLogger(SettingsFileWatch.class);
    private static final long POLL_MILLIS = 1000;

    private final LiveSettings live;
    private final Consumer<String> problem;
    private Object seen;

    private SettingsFileWatch(LiveSettings live, Consumer<String> problem) {
        this.live = live;
        this.problem = problem;
        this.seen = stamp();
    }

    /** Starts watching; {@code problem} hears why a changed file was not applied (invalid value). */
    public static void start(LiveSettings live, Consumer<String> problem) {
        SettingsFileWatch w = create(live, problem);
        Thread.ofPlatform().name("dictum-settings-watch").daemon().start(w::run);
    }

    /** A watch that checks only when {@link #check} is called (tests). */
    static SettingsFileWatch create(LiveSettings live, Consumer<String> problem) {
        return new SettingsFileWatch(live, problem);
    }

    private void run() {
        while (true) {
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            check();
        }
    }

    /** Reads the file again when its time or size changed since the last look. */
    void check() {
        Object now = stamp();
        if (Objects.equals(now, seen) || now == null) {
            return;
        }
        seen = now;
        SettingsStore.Loaded loaded = live.store().load();
        if (loaded.notice() != null) {
            LOG.warn("settings file changed but not applied: {}", loaded.notice());
            problem.accept(loaded.notice());
            return;
        }
        try {
            Settings before = live.current();
            if (!live.update(s -> loaded.settings()).equals(before)) {
                LOG.info("settings file changed: applied");
            }
        } catch (RuntimeException e) {
            LOG.warn("settings file changed but not applied: {}", e.getMessage());
            problem.accept("The changed settings file was not applied: " + e.getMessage());
        }
    }

    private Object stamp() {
        try {
            BasicFileAttributes a = Files.readAttributes(live.store().file(), BasicFileAttributes.class);
            return a.lastModifiedTime().toMillis() + ":" + a.size() + ":" + a.fileKey();
        } catch (IOException e) {
            return null;
        }
    }
}
