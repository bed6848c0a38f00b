package dev.dictum.app.settings;

import com.fasterxml.jackson.annotation.JsonProperty;

/** How the dictation hotkey works. */
public enum DictationMode {
    /** Hold to record, release to transcribe. */
    @JsonProperty("push-to-talk") PUSH_TO_TALK("Push-to-talk (hold)"),
    /** Press to start, press again to stop. */
    @JsonProperty("toggle") TOGGLE("Toggle (press, press)"),
    /** A tap toggles, a hold is push-to-talk. */
    @JsonProperty("hold-or-tap") HOLD_OR_TAP("Hold or tap");

    private final String label;

    DictationMode(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
