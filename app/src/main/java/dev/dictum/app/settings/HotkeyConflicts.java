package dev.dictum.app.settings;

import dev.dictum.app.hotkey.Hotkey;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Two actions bound to the same combination cannot both work: the second is refused. */
final class HotkeyConflicts {
    private HotkeyConflicts() {
    }

    static void check(List<SettingProblem> out, HotkeySettings h) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("dictate", h.dictate());
        fields.put("cancel", h.cancel());
        fields.put("stopAndEnter", h.stopAndEnter());
        fields.put("pasteLast", h.pasteLast());
        Map<Hotkey, String> seen = new LinkedHashMap<>();
        for (Map.Entry<String, String> f : fields.entrySet()) {
            if (f.getValue().isBlank() || Hotkey.problem(f.getValue()) != null) {
                continue;
            }
            Hotkey k = Hotkey.parse(f.getValue());
            String other = seen.putIfAbsent(k, f.getKey());
            if (other != null) {
                out.add(new SettingProblem("hotkeys." + f.getKey(), k + " is already the " + other + " hotkey"));
            }
        }
    }
}
