package dev.dictum.app.files;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Where Dictum keeps its files, by the platform's conventions: settings in the config directory
 * ({@code %APPDATA%\Dictum}, {@code $XDG_CONFIG_HOME/dictum} or {@code ~/.config/dictum}), recordings,
 * history, logs and downloaded models in the data directory ({@code %LOCALAPPDATA%\Dictum},
 * {@code $XDG_DATA_HOME/dictum} or {@code ~/.local/share/dictum}).
 *
 * @param config settings.json lives here
 * @param data   recordings/, history.db, logs/, models/ live here
 */
public record AppDirs(Path config, Path data) {

    /** The directories for this user on this machine. */
    public static AppDirs forCurrentUser() {
        return of(System.getenv(), System.getProperty("os.name", ""), Path.of(System.getProperty("user.home", ".")));
    }

    /** The directories for the given environment (testable: no global state read). */
    public static AppDirs of(Map<String, String> env, String osName, Path home) {
        if (osName.toLowerCase(Locale.ROOT).startsWith("windows")) {
            Path roaming = pathOr(env.get("APPDATA"), home.resolve("AppData").resolve("Roaming"));
            Path local = pathOr(env.get("LOCALAPPDATA"), home.resolve("AppData").resolve("Local"));
            return new AppDirs(roaming.resolve("Dictum"), local.resolve("Dictum"));
        }
        Path config = pathOr(env.get("XDG_CONFIG_HOME"), home.resolve(".config"));
        Path data = pathOr(env.get("XDG_DATA_HOME"), home.resolve(".local").resolve("share"));
        return new AppDirs(config.resolve("dictum"), data.resolve("dictum"));
    }

    public Path settingsFile() {
        return config.resolve("settings.json");
    }

    public Path recordings() {
        return data.resolve("recordings");
    }

    public Path historyDatabase() {
        return data.resolve("history.db");
    }

    public Path logs() {
        return data.resolve("logs");
    }

    /** Where the model manager puts downloads, and the default models folder. */
    public Path models() {
        return data.resolve("models");
    }

    private static Path pathOr(String value, Path fallback) {
        // XDG: a relative value is invalid and must be ignored.
        if (value == null || value.isBlank()) {
            return fallback;
        }
        Path p = Path.of(value);
        return p.isAbsolute() ? p : fallback;
    }
}
