package dev.dictum.app.settings;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;

/** Small validation helpers shared by the settings groups. */
final class Checks {
    private Checks() {
    }

    static <T> T or(T value, T fallback) {
        return value == null ? fallback : value;
    }

    static void range(List<SettingProblem> out, String field, double value, double min, double max, String unit) {
        if (!(value >= min && value <= max)) {
            out.add(new SettingProblem(field, "must be between " + fmt(min) + " and " + fmt(max) + unit
                    + ", not " + fmt(value)));
        }
    }

    /** An optional path: empty, or one the platform can represent. */
    static void path(List<SettingProblem> out, String field, String text) {
        if (text.isBlank()) {
            return;
        }
        try {
            Path.of(text);
        } catch (InvalidPathException e) {
            out.add(new SettingProblem(field, "not a valid path: " + e.getReason()));
        }
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
