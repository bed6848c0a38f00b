package dev.dictum.app.hotkey;

import dev.dictum.app.hotkey.HotkeyTracker.Event;
import dev.dictum.app.os.Modifier;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which key events the Windows low-level hook consumes (JNativeHook lets a listener on its own
 * thread mark an event consumed on Windows; on Linux it cannot, hence X11 grabs). A press that
 * fires one of the app's actions while that action's key is the app's ({@link GrabPlan}) is
 * consumed, and so are that key's auto-repeats and its release, even when the action ended the
 * recording in between (the release of the Escape that cancelled). Modifier keys are never
 * consumed: the window would see Ctrl pressed and never released.
 */
final class KeySwallower {
    private final Set<Input> swallowing = new HashSet<>();

    /** @return whether to consume this press, given what the tracker made of it */
    synchronized boolean onPress(Input input, List<Event> fired, boolean recording) {
        if (input.modifier() != null) {
            return false;
        }
        if (swallowing.contains(input)) {
            return true; // auto-repeat of a key that is ours
        }
        for (Event e : fired) {
            if (e.pressed() && GrabPlan.held(e.action(), recording)) {
                swallowing.add(input);
                return true;
            }
        }
        return false;
    }

    /** @return whether to consume this release (its press was consumed) */
    synchronized boolean onRelease(Input input) {
        return swallowing.remove(input);
    }
}
