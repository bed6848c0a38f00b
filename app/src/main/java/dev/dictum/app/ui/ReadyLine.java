package dev.dictum.app.ui;

import dev.dictum.app.engine.EngineManager;
import dev.dictum.app.settings.DictationMode;
import dev.dictum.app.settings.HotkeySettings;

/**
 * The one line {@code dictum app} prints on stdout, the moment the hotkey is live (the model may
 * still be loading behind it: a dictation then waits for it). Everything else goes to the log file,
 * so a healthy start shows exactly this line; plain text, no terminal colours, so it reads the same
 * when redirected.
 */
public final class ReadyLine {
    private ReadyLine() {
    }

    public static String of(HotkeySettings hotkeys, EngineManager.State engine) {
        String how = hotkeys.mode() == DictationMode.TOGGLE
                ? "press " + hotkeys.dictate() + ", speak, press it again"
                : "hold " + hotkeys.dictate() + " and speak";
        String model = engine.model() == null ? "no model chosen yet" : "model " + engine.model();
        String backend = engine.backend() == null ? "" : ", backend " + engine.backend();
        return "Dictum is ready: " + how + " (" + model + backend + ")";
    }
}
