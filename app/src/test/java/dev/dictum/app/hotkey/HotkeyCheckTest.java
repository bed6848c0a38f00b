package dev.dictum.app.hotkey;

import dev.dictum.app.os.Grab;
import dev.dictum.app.os.KeyGrabs;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.app.settings.Settings;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HotkeyCheckTest {

    @Test
    void aCombinationAnotherProgramHoldsIsNamedWithTheReasonAndEveryGrabIsGivenBack() {
        Set<Grab> held = new HashSet<>();
        KeyGrabs desktopHoldsPasteLast = new KeyGrabs() {
            @Override
            public Map<Grab, String> hold(Set<Grab> grabs) {
                held.clear();
                held.addAll(grabs);
                return grabs.stream().filter(g -> g.exact().toString().equals("Ctrl+Alt+V")).findFirst()
                        .map(g -> Map.of(g, "another program holds it")).orElse(Map.of());
            }

            @Override
            public void close() {
            }
        };
        assertThat(HotkeyCheck.lines(Settings.defaults().hotkeys(), desktopHoldsPasteLast)).containsExactlyInAnyOrder(
                "Ctrl+Alt+Space: free (kept from other windows while it acts)",
                "Escape (with any modifiers): free (kept from other windows while it acts)",
                "Ctrl+Alt+Enter: free (kept from other windows while it acts)",
                "Ctrl+Alt+V: cannot be kept from other windows: another program holds it");
        assertThat(held).isEmpty();
    }
}
