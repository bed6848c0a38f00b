package dev.dictum.app.settings;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The keystroke that pastes: terminals want Ctrl+Shift+V, some X11 apps Shift+Insert. */
public enum PasteKeystroke {
    @JsonProperty("ctrl+v") CTRL_V("Ctrl+V"),
    @JsonProperty("ctrl+shift+v") CTRL_SHIFT_V("Ctrl+Shift+V (terminals)"),
    @JsonProperty("shift+insert") SHIFT_INSERT("Shift+Insert");

    private final String label;

    PasteKeystroke(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
