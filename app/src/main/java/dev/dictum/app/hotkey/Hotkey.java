package dev.dictum.app.hotkey;

import dev.dictum.app.os.Modifier;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * A key combination: modifiers plus at most one other key or mouse button. With no such trigger
 * it is a modifier-only combination (Ctrl+Super), pressed when exactly those modifiers are held.
 * The trigger may be one side's modifier key ("RightCtrl", "RightAlt"): a single spare key that
 * people map a mouse or macro button to; the other side's key stays a plain modifier.
 *
 * @param modifiers held for the combination (exactly these: Ctrl+Shift+Space is not Ctrl+Space)
 * @param trigger   the key or button that completes it, or null for a modifier-only combination
 */
public record Hotkey(Set<Modifier> modifiers, Input trigger) {

    public Hotkey {
        modifiers = modifiers.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(modifiers));
        if (trigger == null && modifiers.isEmpty()) {
            throw new IllegalArgumentException("a hotkey needs at least one key");
        }
        if (trigger != null && trigger.modifier() != null && modifiers.contains(trigger.modifier())) {
            throw new IllegalArgumentException(trigger.displayName() + " is itself " + trigger.modifier().display());
        }
    }

    /**
     * Parses "Ctrl+Alt+Space", "ctrl+super", "Mouse4", "Shift+F9". An empty or blank string is
     * rejected; use null for "no hotkey".
     *
     * @throws IllegalArgumentException with the reason, to show the user as it is
     */
    public static Hotkey parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty hotkey");
        }
        EnumSet<Modifier> mods = EnumSet.noneOf(Modifier.class);
        Input trigger = null;
        for (String raw : text.split("\\+", -1)) {
            String part = raw.strip();
            if (part.isEmpty()) {
                throw new IllegalArgumentException("'" + text + "': empty key name (write Ctrl+Alt+Space)");
            }
            Modifier m = KeyNames.isSideName(part) ? null : Modifier.ofName(part);
            Input input = m != null ? null : input(part);
            if (m != null) {
                if (!mods.add(m)) {
                    throw new IllegalArgumentException("'" + text + "': " + m.display() + " appears twice");
                }
            } else if (input == null) {
                throw new IllegalArgumentException("'" + text + "': unknown key '" + part + "'");
            } else if (trigger != null) {
                throw new IllegalArgumentException("'" + text + "': only one key besides modifiers ("
                        + trigger.displayName() + " and " + input.displayName() + ")");
            } else {
                trigger = input;
            }
        }
        if (trigger != null && trigger.kind() == Input.Kind.MOUSE && trigger.code() <= 2 && mods.isEmpty()) {
            throw new IllegalArgumentException("'" + text + "': the left and right mouse buttons alone would"
                    + " fire on every click; add a modifier or use Mouse4/Mouse5");
        }
        if (trigger != null && trigger.modifier() != null && mods.contains(trigger.modifier())) {
            throw new IllegalArgumentException("'" + text + "': " + trigger.displayName() + " is itself "
                    + trigger.modifier().display());
        }
        return new Hotkey(mods, trigger);
    }

    /** Like {@link #parse} but returns the reason the text is unusable, or null when it parses. */
    public static String problem(String text) {
        try {
            parse(text);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    private static Input input(String part) {
        String p = part.toLowerCase(Locale.ROOT);
        if (p.matches("mouse[1-9]")) {
            return Input.mouse(p.charAt(5) - '0');
        }
        if (p.equals("mouseback") || p.equals("xbutton1")) {
            return Input.mouse(4);
        }
        if (p.equals("mouseforward") || p.equals("xbutton2")) {
            return Input.mouse(5);
        }
        int code = KeyNames.code(part);
        return code < 0 ? null : Input.key(code);
    }

    public boolean modifierOnly() {
        return trigger == null;
    }

    /** Whether the input takes part in this combination. */
    public boolean uses(Input input) {
        Modifier m = input.modifier();
        return input.equals(trigger) || m != null && modifiers.contains(m);
    }

    /**
     * Modifier-only, or triggered by one side's modifier key: other keys pressed while it is held
     * mean a shortcut (RightCtrl+C), not dictation.
     */
    public boolean modifierLike() {
        return trigger == null || trigger.modifier() != null;
    }

    /** The canonical text: modifiers in a fixed order, then the trigger ("Ctrl+Alt+Space"). */
    @Override
    public String toString() {
        return Modifier.combination(modifiers, trigger == null ? null : trigger.displayName());
    }
}
