package dev.dictum.app.hotkey;

import static dev.dictum.app.hotkey.HotkeyTracker.Action.CANCEL;
import static dev.dictum.app.hotkey.HotkeyTracker.Action.DICTATE;
import static dev.dictum.app.hotkey.HotkeyTracker.Action.PASTE_LAST;
import static dev.dictum.app.hotkey.HotkeyTracker.Action.STOP_AND_ENTER;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.kwhat.jnativehook.keyboard.NativeKeyEvent;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which keys stay the app's: the Windows hook's consumption and the X11 grab plan. */
class KeySwallowerTest {
    static final Input CTRL = HotkeyTrackerTest.CTRL;
    static final Input ALT = HotkeyTrackerTest.ALT;
    static final Input SPACE = HotkeyTrackerTest.SPACE;
    static final Input ESC = HotkeyTrackerTest.ESC;
    static final Input V = HotkeyTrackerTest.V;
    static final Input ENTER = Input.key(NativeKeyEvent.VC_ENTER);

    final Map<HotkeyTracker.Action, Hotkey> bindings = Map.of(DICTATE, Hotkey.parse("Ctrl+Alt+Space"),
            CANCEL, Hotkey.parse("Escape"), STOP_AND_ENTER, Hotkey.parse("Ctrl+Alt+Enter"),
            PASTE_LAST, Hotkey.parse("Ctrl+Alt+V"));
    final HotkeyTracker t = new HotkeyTracker(bindings);
    final KeySwallower s = new KeySwallower();

    boolean press(Input i, boolean recording) {
        return s.onPress(i, t.onPress(i), recording);
    }

    boolean release(Input i) {
        t.onRelease(i);
        return s.onRelease(i);
    }

    @Test
    void theDictationKeyItsRepeatsAndItsReleaseAreConsumedButNeverTheModifiers() {
        assertThat(press(CTRL, false)).isFalse();
        assertThat(press(ALT, false)).isFalse();
        assertThat(press(SPACE, false)).isTrue();
        assertThat(press(SPACE, true)).isTrue(); // auto-repeat
        assertThat(press(ENTER, true)).isTrue(); // stop and Enter, while recording: no stray newline
        assertThat(release(ENTER)).isTrue();
        assertThat(release(CTRL)).isFalse();
        assertThat(release(SPACE)).isTrue();
        assertThat(release(ALT)).isFalse();
    }

    @Test
    void escapeAndEnterAreTheWindowsWhileNothingRecords() {
        assertThat(press(ESC, false)).isFalse();
        assertThat(release(ESC)).isFalse();
        press(CTRL, false);
        press(ALT, false);
        assertThat(press(ENTER, false)).isFalse();
        assertThat(release(ENTER)).isFalse();
        assertThat(press(V, false)).isTrue(); // paste last: always ours, or the window pastes its own clipboard
        assertThat(release(V)).isTrue();
    }

    @Test
    void theReleaseOfTheEscapeThatCancelledIsConsumedToo() {
        assertThat(press(ESC, true)).isTrue();
        assertThat(release(ESC)).isTrue(); // the recording ended meanwhile; the release is still ours
    }

    @Test
    void theGrabPlanHoldsEscapeAndEnterOnlyWhileRecordingAndNeverModifierCombinations() {
        assertThat(GrabPlan.grabs(bindings, false)).containsExactlyInAnyOrder(
                GrabPlan.grab(Hotkey.parse("Ctrl+Alt+Space"), false), GrabPlan.grab(Hotkey.parse("Ctrl+Alt+V"), false));
        assertThat(GrabPlan.grabs(bindings, true)).containsExactlyInAnyOrder(
                GrabPlan.grab(Hotkey.parse("Ctrl+Alt+Space"), false), GrabPlan.grab(Hotkey.parse("Ctrl+Alt+V"), false),
                GrabPlan.grab(Hotkey.parse("Escape"), true), GrabPlan.grab(Hotkey.parse("Ctrl+Alt+Enter"), false));
        assertThat(GrabPlan.grabs(Map.of(DICTATE, Hotkey.parse("Ctrl+Super")), true)).isEmpty();
        assertThat(GrabPlan.grabs(Map.of(DICTATE, Hotkey.parse("Mouse4")), false))
                .containsExactly(GrabPlan.grab(Hotkey.parse("Mouse4"), false));
    }
}
