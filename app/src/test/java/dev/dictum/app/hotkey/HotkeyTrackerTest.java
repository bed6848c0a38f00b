package dev.dictum.app.hotkey;

import static dev.dictum.app.hotkey.HotkeyTracker.Action.CANCEL;
import static dev.dictum.app.hotkey.HotkeyTracker.Action.DICTATE;
import static dev.dictum.app.hotkey.HotkeyTracker.Action.PASTE_LAST;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.kwhat.jnativehook.keyboard.NativeKeyEvent;
import dev.dictum.app.hotkey.HotkeyTracker.Event;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HotkeyTrackerTest {
    static final Input CTRL = Input.key(NativeKeyEvent.VC_CONTROL);
    static final Input ALT = Input.key(NativeKeyEvent.VC_ALT);
    static final Input SHIFT = Input.key(NativeKeyEvent.VC_SHIFT);
    static final Input SUPER = Input.key(NativeKeyEvent.VC_META);
    static final Input SPACE = Input.key(NativeKeyEvent.VC_SPACE);
    static final Input ESC = Input.key(NativeKeyEvent.VC_ESCAPE);
    static final Input V = Input.key(NativeKeyEvent.VC_V);

    private final HotkeyTracker t = new HotkeyTracker(Map.of(DICTATE, Hotkey.parse("Ctrl+Alt+Space"),
            CANCEL, Hotkey.parse("Escape"), PASTE_LAST, Hotkey.parse("Ctrl+Alt+V")));

    @Test
    void pressWithModifiersThenReleaseOfAnyKeyEndsIt() {
        assertThat(t.onPress(CTRL)).isEmpty();
        assertThat(t.onPress(ALT)).isEmpty();
        assertThat(t.onPress(SPACE)).containsExactly(new Event(DICTATE, true, false));
        // X11 reports the releases in the order the fingers lift: Ctrl first ends the combination.
        assertThat(t.onRelease(CTRL)).containsExactly(new Event(DICTATE, false, false));
        assertThat(t.onRelease(ALT)).isEmpty();
        assertThat(t.onRelease(SPACE)).isEmpty();
    }

    @Test
    void autoRepeatIsIgnored() {
        t.onPress(CTRL);
        t.onPress(ALT);
        assertThat(t.onPress(SPACE)).hasSize(1);
        for (int i = 0; i < 24; i++) {
            assertThat(t.onPress(SPACE)).isEmpty();
        }
        assertThat(t.onRelease(SPACE)).containsExactly(new Event(DICTATE, false, false));
    }

    @Test
    void extraModifiersOrAMissingOneDoNotMatch() {
        t.onPress(CTRL);
        t.onPress(SHIFT);
        t.onPress(ALT);
        assertThat(t.onPress(SPACE)).isEmpty();
        t.reset();
        t.onPress(CTRL);
        assertThat(t.onPress(SPACE)).isEmpty();
    }

    @Test
    void otherBindingsFireIndependently() {
        assertThat(t.onPress(ESC)).containsExactly(new Event(CANCEL, true, false));
        t.onRelease(ESC);
        t.onPress(CTRL);
        t.onPress(ALT);
        assertThat(t.onPress(V)).containsExactly(new Event(PASTE_LAST, true, false));
    }

    @Test
    void modifierOnlyComboPressesWhenCompleteAndIsInterruptedByAnotherKey() {
        HotkeyTracker m = new HotkeyTracker(Map.of(DICTATE, Hotkey.parse("Ctrl+Super")));
        assertThat(m.onPress(CTRL)).isEmpty();
        assertThat(m.onPress(SUPER)).containsExactly(new Event(DICTATE, true, false));
        assertThat(m.onPress(SUPER)).isEmpty(); // repeat
        assertThat(m.onRelease(SUPER)).containsExactly(new Event(DICTATE, false, false));
        assertThat(m.onPress(SUPER)).containsExactly(new Event(DICTATE, true, false));
        assertThat(m.onPress(Input.key(NativeKeyEvent.VC_LEFT))).containsExactly(new Event(DICTATE, false, true));
        assertThat(m.onRelease(CTRL)).isEmpty();
    }

    @Test
    void rightHandModifiersCountAsTheSame() {
        HotkeyTracker m = new HotkeyTracker(Map.of(DICTATE, Hotkey.parse("Ctrl+Super")));
        m.onPress(Input.key(0x0E1D)); // right Ctrl
        assertThat(m.onPress(Input.key(0x0E5C))).containsExactly(new Event(DICTATE, true, false)); // right Super
    }

    @Test
    void mouseSideButton() {
        HotkeyTracker m = new HotkeyTracker(Map.of(DICTATE, Hotkey.parse("Mouse4")));
        assertThat(m.onPress(Input.mouse(1))).isEmpty();
        assertThat(m.onPress(Input.mouse(4))).containsExactly(new Event(DICTATE, true, false));
        assertThat(m.onRelease(Input.mouse(4))).containsExactly(new Event(DICTATE, false, false));
    }

    @Test
    void escapeCancelsWhateverModifiersTheDictationHotkeyHolds() {
        t.onPress(CTRL);
        t.onPress(ALT);
        assertThat(t.onPress(SPACE)).containsExactly(new Event(DICTATE, true, false));
        // Ctrl+Alt are still down (push-to-talk): Ctrl+Alt+Escape is the cancel key, not a new chord.
        assertThat(t.onPress(ESC)).containsExactly(new Event(CANCEL, true, false));
        assertThat(t.isActive(DICTATE)).isTrue();
    }

    @Test
    void aCancelWithModifiersStillNeedsThem() {
        HotkeyTracker m = new HotkeyTracker(Map.of(CANCEL, Hotkey.parse("Ctrl+Q")));
        assertThat(m.onPress(Input.key(NativeKeyEvent.VC_Q))).isEmpty();
        m.reset();
        m.onPress(CTRL);
        m.onPress(SHIFT);
        assertThat(m.onPress(Input.key(NativeKeyEvent.VC_Q))).containsExactly(new Event(CANCEL, true, false));
    }

    @Test
    void oneSideOfAModifierAsASingleKeyHotkey() {
        Input rightCtrl = Input.key(0x0E1D);
        HotkeyTracker m = new HotkeyTracker(Map.of(DICTATE, Hotkey.parse("RightCtrl"),
                CANCEL, Hotkey.parse("Escape")));
        assertThat(m.onPress(CTRL)).isEmpty(); // the left Ctrl stays an ordinary modifier
        assertThat(m.onPress(Input.key(NativeKeyEvent.VC_C))).isEmpty();
        m.reset();
        assertThat(m.onPress(rightCtrl)).containsExactly(new Event(DICTATE, true, false));
        assertThat(m.modifiersHeld()).isTrue(); // the insertion waits for it to be released
        assertThat(m.onRelease(rightCtrl)).containsExactly(new Event(DICTATE, false, false));
        m.onPress(rightCtrl);
        // Escape with it held cancels twice over: as the cancel key, and as a key that breaks the combination.
        assertThat(m.onPress(ESC)).containsExactly(new Event(DICTATE, false, true), new Event(CANCEL, true, false));
        m.reset();
        // RightCtrl+C is a shortcut, not dictation: the combination is interrupted.
        m.onPress(rightCtrl);
        assertThat(m.onPress(Input.key(NativeKeyEvent.VC_C))).containsExactly(new Event(DICTATE, false, true));
    }

    @Test
    void f13AloneIsAHotkey() {
        HotkeyTracker m = new HotkeyTracker(Map.of(DICTATE, Hotkey.parse("F13")));
        assertThat(m.onPress(Input.key(NativeKeyEvent.VC_F13))).containsExactly(new Event(DICTATE, true, false));
        assertThat(m.onRelease(Input.key(NativeKeyEvent.VC_F13))).containsExactly(new Event(DICTATE, false, false));
    }

    @Test
    void aReleaseWithoutAPressIsIgnored() {
        assertThat(t.onRelease(SPACE)).isEmpty();
    }

    @Test
    void theInsertionWaitsForTheHotkeysOwnKeyNotOnlyItsModifiers() {
        HotkeyTracker m = new HotkeyTracker(Map.of(PASTE_LAST, Hotkey.parse("Ctrl+Alt+V"), DICTATE,
                Hotkey.parse("Ctrl+Alt+Space")));
        m.onPress(CTRL);
        m.onPress(ALT);
        assertThat(m.onPress(Input.key(NativeKeyEvent.VC_V))).containsExactly(new Event(PASTE_LAST, true, false));
        m.onRelease(CTRL);
        m.onRelease(ALT);
        assertThat(m.modifiersHeld()).isFalse();
        assertThat(m.shortcutKeysHeld()).as("V is still down: a Ctrl+V now would mix with it").isTrue();
        m.onRelease(Input.key(NativeKeyEvent.VC_V));
        assertThat(m.shortcutKeysHeld()).isFalse();
        m.onPress(Input.key(NativeKeyEvent.VC_Q)); // typing on: no hotkey's key, nothing to wait for
        assertThat(m.shortcutKeysHeld()).isFalse();
    }
}
