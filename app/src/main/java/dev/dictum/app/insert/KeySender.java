package dev.dictum.app.insert;

import dev.dictum.app.settings.PasteKeystroke;

/** Synthetic keystrokes into the focused window. */
public interface KeySender {

    void paste(PasteKeystroke keystroke);

    void enter();
}
