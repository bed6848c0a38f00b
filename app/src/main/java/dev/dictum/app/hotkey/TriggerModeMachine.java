package dev.dictum.app.hotkey;

import dev.dictum.app.settings.DictationMode;

/**
 * The dictation hotkey's meaning in each mode, as a small state machine fed with the
 * combination's presses and releases (auto-repeat already removed by {@link HotkeyTracker}).
 *
 * <ul>
 *   <li>push-to-talk: press starts, release stops;</li>
 *   <li>toggle: a press starts, the next press stops; releases do nothing;</li>
 *   <li>hold-or-tap: a press starts; a release after less than the tap time latches the recording
 *       on (it was a tap: the next press stops it), a later release stops it (it was a hold).</li>
 * </ul>
 * The controller calls {@link #recordingEnded()} whenever a recording ends for another reason
 * (cancel, device lost, a start refused), so the machine never believes in a recording that is
 * not there; a release that arrives after that is ignored.
 */
public final class TriggerModeMachine {

    public enum Command { NONE, START, STOP, CANCEL }

    private enum State { IDLE, HELD, LATCHED }

    private final DictationMode mode;
    private final long tapMillis;
    private State state = State.IDLE;
    private long pressedAt;

    /** @param tapMillis hold-or-tap: a press shorter than this is a tap */
    public TriggerModeMachine(DictationMode mode, long tapMillis) {
        this.mode = mode;
        this.tapMillis = tapMillis;
    }

    public DictationMode mode() {
        return mode;
    }

    public synchronized Command onPress(long nowMillis) {
        switch (state) {
            case IDLE -> {
                pressedAt = nowMillis;
                state = mode == DictationMode.TOGGLE ? State.LATCHED : State.HELD;
                return Command.START;
            }
            case LATCHED -> {
                state = State.IDLE;
                return Command.STOP;
            }
            default -> {
                return Command.NONE; // HELD: a press while held cannot happen after de-duplication
            }
        }
    }

    /** @param interrupted the combination was broken by another key (a shortcut, not dictation) */
    public synchronized Command onRelease(long nowMillis, boolean interrupted) {
        if (state != State.HELD) {
            return Command.NONE;
        }
        if (interrupted) {
            state = State.IDLE;
            return Command.CANCEL;
        }
        if (mode == DictationMode.HOLD_OR_TAP && nowMillis - pressedAt < tapMillis) {
            state = State.LATCHED;
            return Command.NONE;
        }
        state = State.IDLE;
        return Command.STOP;
    }

    /**
     * A recording runs that this machine did not start (the mode changed during it): the next
     * press of the hotkey stops it, in every mode.
     */
    public synchronized void assumeRecording() {
        state = State.LATCHED;
    }

    /** The recording ended without this machine's say (cancel, error, refused start). */
    public synchronized void recordingEnded() {
        state = State.IDLE;
    }

    public synchronized boolean recording() {
        return state != State.IDLE;
    }
}
