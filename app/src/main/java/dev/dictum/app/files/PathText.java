package dev.dictum.app.files;

import java.nio.file.Path;

/**
 * How a path appears in any message to the user: absolute and normalised, in single quotes, so a
 * message names a file the same way whether it came from the command line, a setting or a default
 * folder, and a path with spaces still reads as one thing.
 */
public final class PathText {
    private PathText() {
    }

    public static String quoted(Path p) {
        return "'" + p.toAbsolutePath().normalize() + "'";
    }

    public static String quoted(String path) {
        try {
            return quoted(Path.of(path));
        } catch (java.nio.file.InvalidPathException e) {
            return "'" + path + "'";
        }
    }
}
