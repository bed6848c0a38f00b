package dev.dictum.app.ui.settings;

import dev.dictum.app.settings.Settings;
import dev.dictum.app.settings.SettingsGroup;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Reads and changes one field of a settings group by name, over the groups' record components. The
 * form is built from the records themselves, so a setting added to a group appears in the window
 * (with a plain label until {@link FieldLabels} names it) without touching the window.
 */
final class RecordFields {

    private RecordFields() {
    }

    /** The group's record in {@code s} ({@code s.hotkeys()} for HOTKEYS). */
    static Record group(Settings s, SettingsGroup g) {
        try {
            return (Record) Settings.class.getMethod(accessor(g)).invoke(s);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Settings has no accessor for group " + g, e);
        }
    }

    /** "hotkeys" for HOTKEYS: the prefix of the group's fields in the JSON file and in problems. */
    static String accessor(SettingsGroup g) {
        return switch (g) {
            case INSERTION -> "insertion";
            default -> g.name().toLowerCase(Locale.ROOT);
        };
    }

    static List<RecordComponent> fields(Record group) {
        return Arrays.asList(group.getClass().getRecordComponents());
    }

    static Object get(Record group, RecordComponent c) {
        try {
            return c.getAccessor().invoke(group);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * {@code current} with the groups that {@code edited} changed relative to {@code base}: what the window
     * saves, so that a change made elsewhere meanwhile (the tray's model menu) in another group stays.
     */
    static Settings changedGroups(Settings current, Settings base, Settings edited) {
        Settings out = current;
        for (SettingsGroup g : SettingsGroup.values()) {
            Record mine = group(edited, g);
            if (!mine.equals(group(base, g))) {
                try {
                    out = (Settings) Settings.class.getMethod("with", mine.getClass()).invoke(out, mine);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return out;
    }

    /** {@code s} with one field of one group replaced. */
    static Settings with(Settings s, SettingsGroup g, String field, Object value) {
        Record group = group(s, g);
        RecordComponent[] cs = group.getClass().getRecordComponents();
        Object[] values = new Object[cs.length];
        Class<?>[] types = new Class<?>[cs.length];
        boolean found = false;
        for (int i = 0; i < cs.length; i++) {
            types[i] = cs[i].getType();
            values[i] = cs[i].getName().equals(field) ? value : get(group, cs[i]);
            found |= cs[i].getName().equals(field);
        }
        if (!found) {
            throw new IllegalArgumentException(g + " has no field " + field);
        }
        try {
            Constructor<?> ctor = group.getClass().getDeclaredConstructor(types);
            Record changed = (Record) ctor.newInstance(values);
            return (Settings) Settings.class.getMethod("with", group.getClass()).invoke(s, changed);
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException(e.getCause().getMessage(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
