package dev.dictum.app.settings;

import com.fasterxml.jackson.annotation.JsonProperty;

/** How the text reaches the focused window. */
public enum InsertionMethod {
    /** Clipboard saved, text set, paste keystroke, clipboard restored. */
    @JsonProperty("paste") PASTE("Paste"),
    /** Typed as Unicode key events (for apps where paste fails). */
    @JsonProperty("type") TYPE("Type"),
    /** Only put on the clipboard; the user pastes. */
    @JsonProperty("clipboard") CLIPBOARD_ONLY("Clipboard only");

    private final String label;

    InsertionMethod(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
