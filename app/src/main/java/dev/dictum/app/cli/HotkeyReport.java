package dev.dictum.app.cli;

import dev.dictum.app.files.AppDirs;
import dev.dictum.app.hotkey.HotkeyCheck;
import dev.dictum.app.launch.OsIntegrations;
import dev.dictum.app.os.KeyGrabs;
import dev.dictum.app.settings.SettingsStore;
import java.io.PrintWriter;

/** The doctor's "Hotkeys" section: whether another program holds one of the user's hotkeys (X11). */
final class HotkeyReport {
    private HotkeyReport() {
    }

    static void print(PrintWriter out) {
        out.println();
        out.println("Hotkeys");
        try {
            var x11 = OsIntegrations.x11Grabs();
            if (x11.isEmpty()) {
                out.println("  not checked: no X11 display (DISPLAY is not set, or not Linux)");
                return;
            }
            try (KeyGrabs grabs = x11.get()) {
                var hotkeys = new SettingsStore(AppDirs.forCurrentUser().settingsFile()).load().settings().hotkeys();
                HotkeyCheck.lines(hotkeys, grabs).forEach(l -> out.println("  " + l));
            }
        } catch (RuntimeException | LinkageError e) {
            out.println("  not checked: " + OneLineErrors.describe(e));
        }
    }
}
