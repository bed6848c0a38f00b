package dev.dictum.app.launch;

import dev.dictum.app.os.Autostart;
import dev.dictum.app.os.linux.XdgAutostart;
import dev.dictum.app.os.windows.WindowsRunKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Picks the OS adapters for the running system. Only the composition root calls this: everything
 * else receives the ports ({@code dev.dictum.app.os}) and never names an adapter.
 */
public final class OsIntegrations {
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
}
