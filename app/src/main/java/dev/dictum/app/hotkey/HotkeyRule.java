package dev.dictum.app.hotkey;

import dev.dictum.app.settings.HotkeySettings;
import dev.dictum.app.settings.SettingProblem;
import dev.dictum.app.settings.Settings;
import dev.dictum.app.settings.SettingsGroup;
import dev.dictum.app.settings.SettingsRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The settings hold hotkeys as text; whether a text is a hotkey is this package's to say. Each
 * field must parse (empty means "none" where the action is optional), and two actions bound to the
 * same combination cannot both work: the second is refused. Registered for {@link SettingsRule}'s
 * ServiceLoader in {@code META-INF/services}.
 */
public final class HotkeyRule implements SettingsRule {

    @Override
    public SettingsGroup group() {
        return SettingsGroup.HOTKEYS;
    }

    @Override
    public List<SettingProblem> problems(Settings settings) {
        HotkeySettings h = settings.hotkeys();
        List<SettingProblem> out = new ArrayList<>();
        hotkey(out, "hotkeys.dictate", h.dictate(), false);
        hotkey(out, "hotkeys.cancel", h.cancel(), true);
        hotkey(out, "hotkeys.stopAndEnter", h.stopAndEnter(), true);
        hotkey(out, "hotkeys.pasteLast", h.pasteLast(), true);
        conflicts(out, h);
        return out;
    }

    /** A hotkey text; empty means "none" where {@code optional}. */
    private static void hotkey(List<SettingProblem> out, String field, String text, boolean optional) {
        if (text.isBlank()) {
            if (!optional) {
                out.add(new SettingProblem(field, "a hotkey is required"));
            }
            return;
        }
        String p = Hotkey.problem(text);
        if (p != null) {
            out.add(new SettingProblem(field, p));
        }
    }

    private static void conflicts(List<SettingProblem> out, HotkeySettings h) {
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
