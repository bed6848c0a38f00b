package dev.dictum.app.os.x11;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dictum.app.os.Keystrokes.Key;
import dev.dictum.app.testing.Xclip;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The paste keystroke and Enter on Dictum's own X connection, into a real X client (the end-to-end
 * script's Tk window, which pastes the CLIPBOARD on Ctrl+V and Shift+Insert). A chord whose modifier
 * did not hold would type a "v" or nothing instead of the clipboard's text. Needs an X display,
 * python3 with Tk and xclip; skipped without them.
 */
class X11KeysTest {
    @TempDir
    Path dir;

    @Test
    void pasteChordsAndEnterReachTheFocusedWindow() throws Exception {
        assumeTrue(XDisplay.available(), "skipped: no X display (DISPLAY is not set)");
        assumeTrue(TkTarget.available(), "skipped: no python3 with tkinter for the target window");
        assumeTrue(Xclip.available(), "skipped: no xclip");
        Process owner = Xclip.own("Grüße, copied");
        try (TkTarget target = TkTarget.start(dir); X11Keys keys = new X11Keys()) {
            keys.chord(Key.CONTROL, Key.V);
            assertThat(target.awaitText("Grüße, copied", 20)).as("after Ctrl+V the window holds [%s]", target.text()).isTrue();
            keys.chord(Key.ENTER);
            keys.chord(Key.SHIFT, Key.INSERT);
            assertThat(target.awaitText("Grüße, copied\nGrüße, copied", 20))
                    .as("after Enter and Shift+Insert the window holds [%s]", target.text()).isTrue();
        } finally {
            owner.destroy();
        }
    }

    @Test
    void everyKeyOfAChordIsOnTheKeyboardOfTheServer() {
        assumeTrue(XDisplay.available(), "skipped: no X display (DISPLAY is not set)");
        try (XDisplay d = XDisplay.open()) {
            X11Keymap map = X11Keymap.read(d.handle);
            for (Key k : Key.values()) {
                assertThat(map.keycodeOf(X11Keys.keysyms(k)[0])).as("the keycode of %s", k).isBetween(8, 255);
            }
        }
    }

    @Test
    void aKeysymIsFoundInTheFirstColumnBeforeAnyOther() {
        long v = X11Keys.keysyms(Key.V)[0];
        // keycodes 8, 9, 10; two columns each: 9 has v in its second column, 10 in its first
        X11Keymap map = new X11Keymap(8, 3, 2, new long[] {0x61, 0x41, 0x6c6, v, v, 0x56});
        assertThat(map.keycodeOf(v)).isEqualTo(10);
        X11Keymap secondGroupOnly = new X11Keymap(8, 2, 2, new long[] {0x6c6, v, 0x61, 0});
        assertThat(secondGroupOnly.keycodeOf(v)).isEqualTo(8);
        assertThat(secondGroupOnly.keycodeOf(X11Keys.keysyms(Key.INSERT)[0])).as("no key carries it").isZero();
    }
    @Test
    void aModifierMovedOffItsLeftKeyIsPressedOnTheRightOneAndAMissingKeyRefusesTheChord() {
        // keycodes 8, 9: Control_R and v only (a layout option took Control_L away)
        X11Keymap map = new X11Keymap(8, 2, 2, new long[] {0xffe4, 0, 0x76, 0x56});
        assertThat(X11Keys.keycode(map, Key.CONTROL)).isEqualTo(8);
        assertThat(X11Keys.keycode(map, Key.V)).isEqualTo(9);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> X11Keys.keycode(map, Key.INSERT))
                .isInstanceOf(IllegalStateException.class).hasMessage("the keyboard map has no insert key");
    }
}
