package dev.dictum.app.os;

import java.util.Locale;

/** Modifier keys; left and right keys count as the same modifier. */
public enum Modifier {
    CTRL("Ctrl", 0x001D, 0x0E1D),
    ALT("Alt", 0x0038, 0x0E38),
    SHIFT("Shift", 0x002A, 0x0036),
    SUPER("Super", 0x0E5B, 0x0E5C);

    private final String display;
    private final int left;
    private final int right;

    Modifier(String display, int left, int right) {
        this.display = display;
        this.left = left;
        this.right = right;
    }

    public String display() {
        return display;
    }

    /** The key code a synthetic press of this modifier uses (the left key). */
    public int keyCode() {
        return left;
    }

    public static Modifier ofKeyCode(int code) {
        for (Modifier m : values()) {
            if (m.left == code || m.right == code) {
                return m;
            }
        }
        return null;
    }

    /** Names people write: Ctrl/Control, Alt/Option, Shift, Super/Win/Windows/Meta/Cmd. */
    public static Modifier ofName(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "ctrl", "control", "ctl" -> CTRL;
            case "alt", "option", "opt" -> ALT;
            case "shift" -> SHIFT;
            case "super", "win", "windows", "meta", "cmd", "command" -> SUPER;
            default -> null;
        };
    }

    /** The canonical text of a combination: modifiers in this enum's order, then the key ("Ctrl+Alt+Space"). */
    public static String combination(java.util.Set<Modifier> modifiers, String key) {
        java.util.List<String> parts = new java.util.ArrayList<>();
        for (Modifier m : values()) {
            if (modifiers.contains(m)) {
                parts.add(m.display());
            }
        }
        if (key != null) {
            parts.add(key);
        }
        return String.join("+", parts);
    }
}
