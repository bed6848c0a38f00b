package dev.dictum.app.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.app.engine.EngineManager;
import dev.dictum.app.settings.DictationMode;
import dev.dictum.app.settings.HotkeySettings;
import org.junit.jupiter.api.Test;

class ReadyLineTest {
    private static final EngineManager.State LOADING =
            new EngineManager.State(EngineManager.Phase.LOADING, "toy-en (whisper.cpp)", "auto", null);

    @Test
    void namesTheHotkeyFromSettingsTheModelAndTheBackend() {
        HotkeySettings h = HotkeySettings.defaults().withDictate("Ctrl+Super");
        assertThat(ReadyLine.of(h, LOADING))
                .isEqualTo("Dictum is ready: hold Ctrl+Super and speak (model toy-en (whisper.cpp), backend auto)");
    }

    @Test
    void toggleModeSaysToPressTwice() {
        HotkeySettings h = HotkeySettings.defaults().withMode(DictationMode.TOGGLE);
        assertThat(ReadyLine.of(h, LOADING)).startsWith("Dictum is ready: press " + h.dictate() + ", speak, press it again");
    }

    @Test
    void withoutAModelItSaysSoAndHasNoEscapeSequences() {
        String line = ReadyLine.of(HotkeySettings.defaults(),
                new EngineManager.State(EngineManager.Phase.NONE, null, null, "No model chosen"));
        assertThat(line).endsWith("(no model chosen yet)").doesNotContain("\u001b");
    }
}
