package dev.dictum.app.insert;

import dev.dictum.app.os.Keystrokes;
import dev.dictum.app.os.Keystrokes.Key;
import dev.dictum.app.settings.PasteKeystroke;

/** Synthetic keystrokes into the focused window: the paste keystroke the settings name, and Enter. */
public interface KeySender {

    void paste(PasteKeystroke keystroke);

    void enter();

    /** The settings' paste keystroke as a chord of the platform's {@link Keystrokes}. */
    static KeySender over(Keystrokes keys) {
        return new KeySender() {
            @Override
            public void paste(PasteKeystroke keystroke) {
                switch (keystroke) {
                    case CTRL_V -> keys.chord(Key.CONTROL, Key.V);
                    case CTRL_SHIFT_V -> keys.chord(Key.CONTROL, Key.SHIFT, Key.V);
                    case SHIFT_INSERT -> keys.chord(Key.SHIFT, Key.INSERT);
                }
            }

            @Override
            public void enter() {
                keys.chord(Key.ENTER);
            }
        };
    }
}
