package dev.dictum.app.hotkey;

import dev.dictum.app.os.Modifier;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns the hook's raw presses and releases into presses and releases of the bound
 * combinations. Pure logic: the hook thread feeds it, tests feed it directly.
 *
 * <p>Auto-repeat (a second press of a key already held, as X11 and Windows send while a key is
 * held) is ignored. A combination is released as soon as any of its keys is released (X11
 * reports Ctrl, Alt, Space releases in the order the user lifts them). A modifier-only
 * combination that sees another key pressed while it is held is released as "interrupted": the
 * user was typing a shortcut such as Ctrl+Super+Left, not dictating.
 *
 * <p>Cancel matches by key, not by the full chord: its key cancels with any extra modifiers held
 * (at least the binding's own), because in push-to-talk the dictation modifiers are still down
 * when the user reaches for Escape (Ctrl+Alt+Escape must cancel too).
 */
public final class HotkeyTracker {

    /** What a bound combination does. */
    public enum Action { DICTATE, CANCEL, STOP_AND_ENTER, PASTE_LAST }

    /**
     * @param pressed     true on press, false on release
     * @param interrupted a release caused by another key pressed during a modifier-only combination
     */
    public record Event(Action action, boolean pressed, boolean interrupted) {
    }

    private final Map<Action, Hotkey> bindings;
    private final Set<Input> held = new HashSet<>();
    private final Set<Action> active = EnumSet.noneOf(Action.class);

    /** @param bindings the combination of each action; actions without one are simply absent */
    public HotkeyTracker(Map<Action, Hotkey> bindings) {
        this.bindings = bindings.isEmpty() ? new EnumMap<>(Action.class) : new EnumMap<>(bindings);
    }

    public synchronized List<Event> onPress(Input input) {
        if (!held.add(input)) {
            return List.of(); // auto-repeat
        }
        List<Event> out = new ArrayList<>(1);
        if (input.modifier() == null) {
            for (Action a : List.copyOf(active)) {
                if (bindings.get(a).modifierLike()) {
                    active.remove(a);
                    out.add(new Event(a, false, true));
                }
            }
        }
        for (Map.Entry<Action, Hotkey> b : bindings.entrySet()) {
            Hotkey h = b.getValue();
            // A side modifier as the trigger (RightCtrl) does not count as its own modifier.
            Set<Modifier> mods = heldModifiersExcept(h.trigger() != null && h.trigger().modifier() != null ? h.trigger() : null);
            boolean modsMatch = b.getKey() == Action.CANCEL ? mods.containsAll(h.modifiers()) : h.modifiers().equals(mods);
            if (active.contains(b.getKey()) || !modsMatch) {
                continue;
            }
            boolean completes = h.modifierOnly() ? input.modifier() != null && noOtherKeyHeld()
                    : input.equals(h.trigger()) && (input.modifier() == null || noOtherKeyHeld());
            if (completes) {
                active.add(b.getKey());
                out.add(new Event(b.getKey(), true, false));
            }
        }
        return out;
    }

    public synchronized List<Event> onRelease(Input input) {
        if (!held.remove(input)) {
            return List.of(); // pressed before the hook started, or a duplicate release
        }
        List<Event> out = new ArrayList<>(1);
        for (Action a : List.copyOf(active)) {
            if (bindings.get(a).uses(input)) {
                active.remove(a);
                out.add(new Event(a, false, false));
            }
        }
        return out;
    }

    /** Forgets every held key (the hook restarted, the session was locked). */
    public synchronized void reset() {
        held.clear();
        active.clear();
    }

    /** Whether any key of the given action's combination is down (for tests and diagnostics). */
    public synchronized boolean isActive(Action action) {
        return active.contains(action);
    }

    /** Whether the input completes one of the bound combinations (its key, not a modifier). */
    public boolean isTrigger(Input input) {
        return bindings.values().stream().anyMatch(h -> input.equals(h.trigger()));
    }

    /** Whether a modifier key is down now (a paste keystroke sent now would become another shortcut). */
    public synchronized boolean modifiersHeld() {
        return !heldModifiers().isEmpty();
    }

    /**
     * Whether a modifier or the key of a bound combination is down now. Paste-last fires on the press
     * of its key, and a Ctrl+V sent while that key is still down mixes with it: in the 1,000-dictation
     * soak, Ctrl+Alt+V from xdotool left a bare "v" in the window 3 times in the first 460 dictations,
     * each time a paste that had waited for the keys to come up (the modifiers only, then).
     */
    public synchronized boolean shortcutKeysHeld() {
        return !heldModifiers().isEmpty() || held.stream().anyMatch(this::isTrigger);
    }

    private Set<Modifier> heldModifiers() {
        return heldModifiersExcept(null);
    }

    private Set<Modifier> heldModifiersExcept(Input except) {
        EnumSet<Modifier> mods = EnumSet.noneOf(Modifier.class);
        for (Input i : held) {
            if (i.modifier() != null && !i.equals(except)) {
                mods.add(i.modifier());
            }
        }
        return mods;
    }

    private boolean noOtherKeyHeld() {
        return held.stream().allMatch(i -> i.modifier() != null);
    }
}
