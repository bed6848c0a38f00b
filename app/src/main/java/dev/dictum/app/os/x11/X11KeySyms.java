package dev.dictum.app.os.x11;

import java.util.Locale;
import java.util.Map;

/**
 * The X keysym name of a key as the hook names it ("Enter" is Return, "PageUp" is Prior), and the
 * X button of a hook mouse button. Letters, digits and F1–F24 are named alike.
 */
final class X11KeySyms {
    private static final Map<String, String> DIFFERENT = Map.ofEntries(
            Map.entry("Enter", "Return"), Map.entry("Backspace", "BackSpace"), Map.entry("PageUp", "Prior"),
            Map.entry("PageDown", "Next"), Map.entry("Equals", "equal"), Map.entry("OpenBracket", "bracketleft"),
            Map.entry("CloseBracket", "bracketright"), Map.entry("BackSlash", "backslash"),
            Map.entry("Quote", "apostrophe"), Map.entry("Backquote", "grave"), Map.entry("Printscreen", "Print"),
            Map.entry("ScrollLock", "Scroll_Lock"), Map.entry("CapsLock", "Caps_Lock"),
            Map.entry("NumLock", "Num_Lock"), Map.entry("ContextMenu", "Menu"),
            Map.entry("MediaPlay", "XF86AudioPlay"), Map.entry("MediaStop", "XF86AudioStop"),
            Map.entry("MediaPrevious", "XF86AudioPrev"), Map.entry("MediaNext", "XF86AudioNext"),
            Map.entry("VolumeMute", "XF86AudioMute"), Map.entry("VolumeUp", "XF86AudioRaiseVolume"),
            Map.entry("VolumeDown", "XF86AudioLowerVolume"));
    private static final Map<String, String> LOWER = Map.of("Space", "space", "Minus", "minus", "Comma", "comma",
            "Period", "period", "Slash", "slash", "Semicolon", "semicolon");

    private X11KeySyms() {
    }

    /** The keysym name of a key the hook names {@code name}. */
    static String keysymName(String name) {
        if (name.length() == 1 && Character.isLetter(name.charAt(0))) {
            return name.toLowerCase(Locale.ROOT);
        }
        return DIFFERENT.getOrDefault(name, LOWER.getOrDefault(name, name));
    }

    /** The X button of a hook button: the hook numbers right 2 and middle 3, X the other way; 4/5 are X's 8/9. */
    static int xButton(int hookButton) {
        return switch (hookButton) {
            case 2 -> 3;
            case 3 -> 2;
            case 4 -> 8;
            case 5 -> 9;
            default -> hookButton;
        };
    }
}
