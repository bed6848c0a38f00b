package dev.dictum.app.launch;

import dev.dictum.app.os.Autostart;
import dev.dictum.app.os.ClipboardChanges;
import dev.dictum.app.os.FocusTracker;
import dev.dictum.app.os.KeyGrabs;
import dev.dictum.app.os.Keystrokes;
import dev.dictum.app.os.TextOffer;
import dev.dictum.app.os.UnicodeTyper;
import dev.dictum.app.os.linux.XdgAutostart;
import dev.dictum.app.os.windows.WindowsClipboardChanges;
import dev.dictum.app.os.windows.WindowsFocus;
import dev.dictum.app.os.windows.WindowsRunKey;
import dev.dictum.app.os.windows.WindowsTyper;
import dev.dictum.app.os.x11.X11ClipboardChanges;
import dev.dictum.app.os.x11.X11Focus;
import dev.dictum.app.os.x11.X11Grabs;
import dev.dictum.app.os.x11.X11Keys;
import dev.dictum.app.os.x11.X11TextOffer;
import dev.dictum.app.os.x11.X11Typer;
import dev.dictum.app.os.x11.XErrors;
import dev.dictum.app.insert.RobotKeys;
import java.awt.AWTException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Picks the OS adapters for the running system: X11 (Linux, BSD with a display), Windows, or the
 * ports' do-nothing defaults. A plain factory rather than ServiceLoader: there are three adapters,
 * all in this jar, and a failing one must fall back with a log line, which a factory says in one
 * place. Only the composition root ({@link DesktopLauncher}) and {@code dictum doctor} call it;
 * everything else receives the ports ({@code dev.dictum.app.os}) and never names an adapter.
 */
public final class OsIntegrations {
    private static final Logger LOG = LoggerFactory.getLogger(OsIntegrations.class);

    private OsIntegrations() {
    }

    /** "Start with the system" for this operating system, or empty where Dictum has none (macOS). */
    public static Optional<Autostart> autostart() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (os.startsWith("windows")) {
            return Optional.of(WindowsRunKey.forThisUser());
        }
        if (os.contains("linux") || os.contains("bsd")) {
            return Optional.of(XdgAutostart.forThisUser());
        }
        return Optional.empty();
    }

    /**
     * How to start the tray app at login: the installed launcher (jpackage sets {@code jpackage.app-path})
     * with {@code app}; from a source checkout, {@code dictum app} from the PATH.
     */
    public static List<String> appCommand() {
        String launcher = System.getProperty("jpackage.app-path");
        if (launcher != null && Files.isExecutable(Path.of(launcher))) {
            return List.of(launcher, "app");
        }
        return List.of("dictum", "app");
    }

    /** Which window has the focus, and giving it back; {@link FocusTracker#NONE} where unknown. */
    public static FocusTracker focusTracker(List<AutoCloseable> closeAtQuit) {
        try {
            if (X11Focus.available()) {
                X11Focus f = new X11Focus();
                closeAtQuit.add(f);
                return f;
            }
            if (WindowsFocus.available()) {
                return new WindowsFocus();
            }
        } catch (RuntimeException | UnsatisfiedLinkError e) {
            LOG.warn("focus tracking unavailable: {}", e.getMessage());
        }
        return FocusTracker.NONE;
    }

    /** Typing any Unicode text as key events, or null where there is none (paste is used instead). */
    public static UnicodeTyper typer(List<AutoCloseable> closeAtQuit) {
        try {
            if (X11Focus.available()) {
                X11Typer t = new X11Typer();
                closeAtQuit.add(t);
                return t;
            }
            if (WindowsFocus.available()) {
                return new WindowsTyper();
            }
        } catch (RuntimeException | UnsatisfiedLinkError e) {
            LOG.warn("typing unavailable (paste is used instead): {}", e.getMessage());
        }
        return null;
    }

    /**
     * The paste keystroke and Enter: XTest on Dictum's own connection on X11 (well under a millisecond,
     * where AWT's Robot took 13-33 ms), the toolkit's Robot elsewhere.
     */
    public static Keystrokes keystrokes(List<AutoCloseable> closeAtQuit) throws AWTException {
        try {
            if (X11Focus.available()) {
                X11Keys k = new X11Keys();
                closeAtQuit.add(k);
                return k;
            }
        } catch (RuntimeException | LinkageError e) { // no libXtst: the interface's loader fails in its initializer
            LOG.warn("Dictum's own keystrokes unavailable (the toolkit's are used): {}", e.getMessage());
        }
        return new RobotKeys();
    }

    /**
     * Whether another program changed the clipboard, so the paste reads it while the user speaks
     * (issue 23); {@link ClipboardChanges#UNKNOWN} (read at the release) where there is no watch.
     */
    public static ClipboardChanges clipboardChanges() {
        try {
            if (X11Focus.available()) {
                return X11ClipboardChanges.open();
            }
            if (WindowsFocus.available()) {
                return new WindowsClipboardChanges();
            }
        } catch (RuntimeException | LinkageError e) { // no libXfixes: the interface's loader fails in its initializer
            LOG.warn("clipboard watch unavailable (the clipboard is read at the release): {}", e.getMessage());
        }
        return ClipboardChanges.UNKNOWN;
    }

    /**
     * Puts the dictated text on the clipboard faster than the toolkit does, where there is a way (X11:
     * a selection owner of Dictum's own); {@link TextOffer#NONE} (the toolkit's clipboard) elsewhere.
     *
     * @param watch the clipboard watch, told which window is Dictum's so that it does not count it
     */
    public static TextOffer textOffer(ClipboardChanges watch, List<AutoCloseable> closeAtQuit) {
        try {
            if (X11Focus.available()) {
                X11TextOffer o = X11TextOffer.open(watch);
                closeAtQuit.add(o);
                return o;
            }
        } catch (RuntimeException | LinkageError e) {
            LOG.warn("Dictum's own clipboard owner unavailable (the toolkit's is used): {}", e.getMessage());
        }
        return TextOffer.NONE;
    }

    /**
     * Once JavaFX is up: its GTK replaced the process-wide X error handler with one that ignores errors on
     * every display but its own; Dictum's chain (its displays, then AWT's) comes back ({@code XErrors}).
     */
    public static void afterGtkStarted() {
        if (X11Focus.available()) {
            LOG.info(XErrors.reinstate() ? "JavaFX is up; its GTK had replaced the X error handler: Dictum's is back"
                    : "JavaFX is up; Dictum's X error handler is still the process's");
        }
    }

    /** X11 passive grabs, so that the app's hotkeys do not also reach the focused window; closed by the hotkeys. */
    public static KeyGrabs keyGrabs() {
        try {
            return x11Grabs().orElse(KeyGrabs.NONE);
        } catch (RuntimeException | UnsatisfiedLinkError e) {
            LOG.warn("key grabs unavailable (the hotkeys also reach the focused window): {}", e.getMessage());
        }
        return KeyGrabs.NONE;
    }

    /**
     * Grabs on a connection of their own, for {@code dictum doctor}; empty without an X11 display.
     *
     * @throws RuntimeException or {@link LinkageError} when the display cannot be used
     */
    public static Optional<KeyGrabs> x11Grabs() {
        return X11Grabs.available() ? Optional.of(new X11Grabs()) : Optional.empty();
    }
}
