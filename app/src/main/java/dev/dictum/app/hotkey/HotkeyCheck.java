package dev.dictum.app.hotkey;

import dev.dictum.app.os.Grab;
import dev.dictum.app.os.KeyGrabs;
import dev.dictum.app.settings.HotkeySettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * For {@code dictum doctor}: whether each of the user's hotkeys can be kept from other windows,
 * or another program (a desktop shortcut, another dictation app) already holds it. Each grab is
 * taken and given back at once.
 */
public final class HotkeyCheck {
    private HotkeyCheck() {
    }

    /** One line per combination the app would hold: "Ctrl+Alt+Space: ours" or why not. */
    public static List<String> lines(HotkeySettings settings, KeyGrabs grabs) {
        List<String> out = new ArrayList<>();
        for (Grab g : GrabPlan.grabs(GlobalHotkeys.bindings(settings), true)) {
            Map<Grab, String> failed = grabs.hold(Set.of(g));
            out.add(g + ": " + (failed.isEmpty() ? "free (kept from other windows while it acts)"
                    : "cannot be kept from other windows: " + failed.get(g)));
        }
        grabs.hold(Set.of());
        return out;
    }
}
