package dev.dictum.app.settings;

/** The groups of the settings window, in its order; each can be reset to its defaults. */
public enum SettingsGroup {
    GENERAL("General"),
    HOTKEYS("Hotkeys"),
    AUDIO("Audio"),
    TRANSCRIPTION("Transcription"),
    INSERTION("Text insertion"),
    MODELS("Models"),
    STORAGE("Privacy and storage"),
    ADVANCED("Advanced");

    private final String label;

    SettingsGroup(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
