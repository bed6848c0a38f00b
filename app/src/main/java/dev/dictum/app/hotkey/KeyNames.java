package dev.dictum.app.hotkey;

import com.github.kwhat.jnativehook.keyboard.NativeKeyEvent;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
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
            if (f.getName().startsWith("VC_") && f.getType() == int.class && Modifier.isStatic(f.getModifiers())
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
