package dev.dictum.app.hotkey;

import com.github.kwhat.jnativehook.keyboard.NativeKeyEvent;
import dev.dictum.app.os.Modifier;
import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Key names both ways, taken from JNativeHook's own {@code VC_*} constants so that every key it
 * can report has a name: "PageUp" is {@code VC_PAGE_UP}, "Enter" {@code VC_ENTER}. Names are matched
 * without case, spaces or underscores; a few common aliases are added.
 */
final class KeyNames {
    private static final Map<String, Integer> BY_NAME = new HashMap<>();
    private static final Map<Integer, String> BY_CODE = new HashMap<>();

    static {
        for (Field f : NativeKeyEvent.class.getFields()) {
            if (f.getName().startsWith("VC_") && f.getType() == int.class && java.lang.reflect.Modifier.isStatic(f.getModifiers())
                    && !f.getName().equals("VC_UNDEFINED")) {
                try {
                    int code = f.getInt(null);
                    String name = display(f.getName().substring(3));
                    BY_NAME.putIfAbsent(normalise(name), code);
                    BY_CODE.putIfAbsent(code, name);
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        // One side of a modifier, as a key of its own (a hotkey of a single key: RightCtrl, RightAlt).
        side("LeftCtrl", 0x001D, "LCtrl", "LeftControl", "ControlL", "CtrlL");
        side("RightCtrl", 0x0E1D, "RCtrl", "RightControl", "ControlR", "CtrlR");
        side("LeftAlt", 0x0038, "LAlt", "AltL");
        side("RightAlt", 0x0E38, "RAlt", "AltR", "AltGr");
        side("LeftShift", 0x002A, "LShift", "ShiftL");
        side("RightShift", 0x0036, "RShift", "ShiftR");
        side("LeftSuper", 0x0E5B, "LSuper", "LeftWin", "LeftMeta", "SuperL");
        side("RightSuper", 0x0E5C, "RSuper", "RightWin", "RightMeta", "SuperR");
        alias("Esc", NativeKeyEvent.VC_ESCAPE);
        alias("Return", NativeKeyEvent.VC_ENTER);
        alias("Del", NativeKeyEvent.VC_DELETE);
        alias("Ins", NativeKeyEvent.VC_INSERT);
        alias("PgUp", NativeKeyEvent.VC_PAGE_UP);
        alias("PgDn", NativeKeyEvent.VC_PAGE_DOWN);
        alias("Menu", NativeKeyEvent.VC_CONTEXT_MENU);
        alias("PrtSc", NativeKeyEvent.VC_PRINTSCREEN);
        alias("Grave", NativeKeyEvent.VC_BACKQUOTE);
    }

    private KeyNames() {
    }

    /** The key code for a name, or -1. */
    static int code(String name) {
        return BY_NAME.getOrDefault(normalise(name), -1);
    }

    static String name(int code) {
        return BY_CODE.getOrDefault(code, "Key" + code);
    }

    /** A modifier key of one side: its display name wins over the hook's generic "Control", "Meta". */
    private static void side(String name, int code, String... aliases) {
        BY_NAME.put(normalise(name), code);
        BY_CODE.put(code, name);
        for (String a : aliases) {
            BY_NAME.put(normalise(a), code);
        }
    }

    /** Whether the name is one side's modifier key ("RightCtrl"), not the modifier itself ("Ctrl"). */
    static boolean isSideName(String name) {
        int code = code(name);
        return code >= 0 && Modifier.ofKeyCode(code) != null && !normalise(name).matches(
                "ctrl|control|ctl|alt|option|opt|shift|super|win|windows|meta|cmd|command");
    }

    private static void alias(String name, int code) {
        BY_NAME.putIfAbsent(normalise(name), code);
    }

    private static String normalise(String name) {
        return name.replaceAll("[\\s_-]", "").toLowerCase(Locale.ROOT);
    }

    /** PAGE_UP → PageUp, A → A, F12 → F12. */
    private static String display(String constant) {
        StringBuilder b = new StringBuilder();
        for (String part : constant.split("_")) {
            b.append(part.charAt(0)).append(part.substring(1).toLowerCase(Locale.ROOT));
        }
        return b.toString();
    }
}
