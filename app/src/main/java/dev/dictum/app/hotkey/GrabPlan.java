package dev.dictum.app.hotkey;

import dev.dictum.app.hotkey.HotkeyTracker.Action;
import dev.dictum.app.os.Grab;
import dev.dictum.app.os.Modifier;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which bound combinations the app keeps from the focused window, and when. Dictate and paste-last
 * are always ours. Cancel and stop-and-Enter use keys that mean something everywhere else
 * (Escape, Enter), so they are held only while a recording runs; cancel with any modifiers,
 * because it matches by key ({@link HotkeyTracker}). Modifier-only combinations and those whose
 * trigger is a modifier key are never held: that would take Ctrl or Super away from the user.
 */
final class GrabPlan {
    private GrabPlan() {
    }

    /** Whether the action's key is the app's, not the window's, in this state. */
    static boolean held(Action a, boolean recording) {
        return switch (a) {
            case DICTATE, PASTE_LAST -> true;
            case CANCEL, STOP_AND_ENTER -> recording;
        };
    }

    static Set<Grab> grabs(Map<Action, Hotkey> bindings, boolean recording) {
        Set<Grab> out = new LinkedHashSet<>();
        bindings.forEach((a, h) -> {
            if (held(a, recording) && possible(h)) {
                out.add(grab(h, a == Action.CANCEL));
            }
        });
        return out;
    }

    /** Whether a combination can be held without taking a modifier away from the user. */
    static boolean possible(Hotkey h) {
        return h.trigger() != null && h.trigger().modifier() == null;
    }

    /** What the OS is asked to hold for a combination that is {@link #possible}. */
    static Grab grab(Hotkey h, boolean anyModifiers) {
        Input t = h.trigger();
        return t.kind() == Input.Kind.KEY ? new Grab(h.modifiers(), t.displayName(), 0, anyModifiers)
                : new Grab(h.modifiers(), null, t.code(), anyModifiers);
    }
}
