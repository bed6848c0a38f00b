package dev.dictum.app.hotkey;

import static dev.dictum.app.hotkey.TriggerModeMachine.Command.CANCEL;
import static dev.dictum.app.hotkey.TriggerModeMachine.Command.NONE;
import static dev.dictum.app.hotkey.TriggerModeMachine.Command.START;
import static dev.dictum.app.hotkey.TriggerModeMachine.Command.STOP;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.app.settings.DictationMode;
import org.junit.jupiter.api.Test;

class TriggerModeMachineTest {
    @Test
    void holdStartsOnPressAndStopsOnRelease() {
        TriggerModeMachine m = new TriggerModeMachine(DictationMode.PUSH_TO_TALK, 300);
        assertThat(m.onPress(0)).isEqualTo(START);
        assertThat(m.recording()).isTrue();
        assertThat(m.onRelease(50, false)).isEqualTo(STOP); // even a short hold stops (too short is the controller's call)
        assertThat(m.recording()).isFalse();
        assertThat(m.onRelease(60, false)).isEqualTo(NONE);
    }

    @Test
    void toggleIgnoresReleases() {
        TriggerModeMachine m = new TriggerModeMachine(DictationMode.TOGGLE, 300);
        assertThat(m.onPress(0)).isEqualTo(START);
        assertThat(m.onRelease(2000, false)).isEqualTo(NONE);
        assertThat(m.onPress(5000)).isEqualTo(STOP);
        assertThat(m.onRelease(5100, false)).isEqualTo(NONE);
        assertThat(m.onPress(6000)).isEqualTo(START);
    }

    @Test
    void holdOrTapTapLatchesAndHoldStops() {
        TriggerModeMachine m = new TriggerModeMachine(DictationMode.HOLD_OR_TAP, 300);
        assertThat(m.onPress(0)).isEqualTo(START);
        assertThat(m.onRelease(120, false)).isEqualTo(NONE); // tap: keeps recording
        assertThat(m.recording()).isTrue();
        assertThat(m.onPress(4000)).isEqualTo(STOP);
        assertThat(m.onRelease(4100, false)).isEqualTo(NONE);
        assertThat(m.onPress(5000)).isEqualTo(START);
        assertThat(m.onRelease(5300, false)).isEqualTo(STOP); // held for the tap time: push-to-talk
    }

    @Test
    void cancelAndInterruptionResetTheMachine() {
        TriggerModeMachine m = new TriggerModeMachine(DictationMode.HOLD_OR_TAP, 300);
        m.onPress(0);
        m.recordingEnded(); // Esc while holding
        assertThat(m.onRelease(1000, false)).isEqualTo(NONE);
        assertThat(m.onPress(2000)).isEqualTo(START);
        assertThat(m.onRelease(2050, true)).isEqualTo(CANCEL);
        assertThat(m.recording()).isFalse();
    }

    @Test
    void aRecordingStartedElsewhereStopsAtTheNextPressInEveryMode() {
        for (DictationMode mode : DictationMode.values()) {
            TriggerModeMachine m = new TriggerModeMachine(mode, 300);
            m.assumeRecording();
            assertThat(m.onRelease(10, false)).as(mode.name()).isEqualTo(NONE);
            assertThat(m.onPress(20)).as(mode.name()).isEqualTo(STOP);
            assertThat(m.recording()).isFalse();
        }
    }

    @Test
    void spamLeavesNoStuckState() {
        for (DictationMode mode : DictationMode.values()) {
            TriggerModeMachine m = new TriggerModeMachine(mode, 300);
            int starts = 0;
            int stops = 0;
            long t = 0;
            for (int i = 0; i < 20 * 60; i++) { // 20 presses a second for a minute
                TriggerModeMachine.Command a = m.onPress(t);
                TriggerModeMachine.Command b = m.onRelease(t + 25, false);
                t += 50;
                starts += (a == START ? 1 : 0) + (b == START ? 1 : 0);
                stops += (a == STOP ? 1 : 0) + (b == STOP ? 1 : 0);
                assertThat(starts - stops).isBetween(0, 1); // never two recordings at once
            }
            if (m.recording()) {
                assertThat(m.onPress(t)).isEqualTo(STOP);
                stops++;
            }
            assertThat(starts).as(mode.name()).isEqualTo(stops).isPositive();
            assertThat(m.recording()).isFalse();
        }
    }
}
