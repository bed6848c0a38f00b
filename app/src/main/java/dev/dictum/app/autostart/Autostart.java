package dev.dictum.app.autostart;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * "Start Dictum with the system": an XDG autostart entry on Linux, the Run key on Windows. The settings
 * window's toggle calls {@link #enable}/{@link #disable}; {@link #isEnabled} reads the system's truth, so
 * a user who removed the entry by hand sees the toggle off.
 */
public interface Autostart {

    boolean isEnabled() throws IOException;

    /** Registers {@code command} (program and arguments) to run at login. */
    void enable(List<String> command) throws IOException;

    void disable() throws IOException;

    /** The implementation for this operating system, or empty where Dictum has none (macOS). */
    static Optional<Autostart> forThisSystem() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (os.startsWith("windows")) {
            return Optional.of(new WindowsRunKey(WindowsRunKey.REG_EXE));
        }
        if (os.contains("linux") || os.contains("bsd")) {
            return Optional.of(new XdgAutostart(XdgAutostart.configHome(System.getenv(), Path.of(System.getProperty("user.home")))));
        }
        return Optional.empty();
    }

    /**
     * How to start the tray app at login: the installed launcher (jpackage sets {@code jpackage.app-path})
     * with {@code app}; from a source checkout, {@code dictum app} from the PATH.
     */
    static List<String> appCommand() {
        String launcher = System.getProperty("jpackage.app-path");
        if (launcher != null && Files.isExecutable(Path.of(launcher))) {
            return List.of(launcher, "app");
        }
        return List.of("dictum", "app");
    }
}
