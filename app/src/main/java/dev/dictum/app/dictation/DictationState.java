package dev.dictum.app.dictation;

/** What the dictation loop is doing; the tray shows one icon per state (and one for errors). */
public enum DictationState {
    IDLE("Ready"),
    RECORDING("Recording"),
    TRANSCRIBING("Transcribing"),
    INSERTING("Inserting");

    private final String label;

    DictationState(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
