package dev.dictum.app.ui.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dictum.app.settings.DictationMode;
import dev.dictum.app.settings.Settings;
import dev.dictum.app.settings.SettingsGroup;
import java.lang.reflect.RecordComponent;
import org.junit.jupiter.api.Test;

/** The settings form's reflection over the settings records, without a display. */
class RecordFieldsTest {

    @Test
    void changesOneFieldOfOneGroupAndNothingElse() {
        Settings s = Settings.defaults();
        Settings t = RecordFields.with(s, SettingsGroup.HOTKEYS, "mode", DictationMode.TOGGLE);
        assertThat(t.hotkeys().mode()).isEqualTo(DictationMode.TOGGLE);
        assertThat(t.hotkeys().withMode(s.hotkeys().mode())).isEqualTo(s.hotkeys());
        assertThat(t.transcription()).isEqualTo(s.transcription());
        Settings u = RecordFields.with(t, SettingsGroup.TRANSCRIPTION, "beamSize", 40);
        assertThat(u.reason("transcription.beamSize")).hasValueSatisfying(r -> assertThat(r).contains("between 1 and 16"));
    }

    @Test
    void aConflictingHotkeyIsRefusedWithTheReason() {
        Settings s = RecordFields.with(Settings.defaults(), SettingsGroup.HOTKEYS, "pasteLast",
                Settings.defaults().hotkeys().dictate());
        assertThat(s.reason("hotkeys.pasteLast")).hasValueSatisfying(r -> assertThat(r).contains("already the dictate hotkey"));
    }

    @Test
    void everyFieldOfEveryGroupHasALabelAndAPrefixTheProblemsUse() {
        Settings s = Settings.defaults();
        for (SettingsGroup g : SettingsGroup.values()) {
            Record group = RecordFields.group(s, g);
            for (RecordComponent c : RecordFields.fields(group)) {
                String key = RecordFields.accessor(g) + "." + c.getName();
                FieldLabels.Text t = FieldLabels.of(key);
                assertThat(t.label()).as(key).isNotBlank();
                // Named in the table, not derived from the Java name: a new setting needs a real label.
                assertThat(FieldLabels.listed(key)).as(key + " has a written label").isTrue();
            }
        }
    }

    @Test
    void savingKeepsAChangeMadeElsewhereInAnotherGroup() {
        Settings base = Settings.defaults();
        Settings edited = RecordFields.with(base, SettingsGroup.TRANSCRIPTION, "beamSize", 5);
        Settings current = base.with(base.models().withModelPath("/models/ggml-base.bin")); // the tray, meanwhile
        Settings saved = RecordFields.changedGroups(current, base, edited);
        assertThat(saved.transcription().beamSize()).isEqualTo(5);
        assertThat(saved.models().modelPath()).isEqualTo("/models/ggml-base.bin");
    }

    @Test
    void anUnknownFieldIsAnError() {
        assertThatThrownBy(() -> RecordFields.with(Settings.defaults(), SettingsGroup.AUDIO, "volume", 3))
                .hasMessageContaining("no field volume");
    }
}
