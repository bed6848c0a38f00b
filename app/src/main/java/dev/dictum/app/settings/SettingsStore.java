package dev.dictum.app.settings;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.dictum.app.files.OwnerOnly;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * The settings file: JSON through Jackson, written atomically (a temporary file beside it, forced
 * to disk, then moved over it in one step), so a crash or a full disk never leaves half a file.
 * A file that cannot be read as settings is kept as a backup beside it and replaced by defaults;
 * values that are out of range reset their group to defaults, also with a backup. Either way
 * {@link Loaded#notice()} says what happened, for the app to show.
 */
public final class SettingsStore {
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final Path file;

    public SettingsStore(Path file) {
        this.file = file;
    }

    public Path file() {
        return file;
    }

    /**
     * @param settings what to use
     * @param notice   one or two lines for the user when the file was corrupt or had invalid values
     *                 (the backup's name included), else null
     * @param backup   where the old file was kept, or null (nothing was wrong, or it could not be copied)
     */
    public record Loaded(Settings settings, String notice, Path backup) {
        public Loaded(Settings settings, String notice) {
            this(settings, notice, null);
        }
    }

    /** Reads the file; a missing file gives defaults (and is not an error). Never throws for bad content. */
    public Loaded load() {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return new Loaded(Settings.defaults(), null);
        } catch (IOException e) {
            // Unreadable (permissions, a folder in its place, an I/O error): keep it aside before defaults are saved over it.
            return broken("it could not be read (" + SettingsProblems.ioReason(e) + ")");
        }
        Settings read;
        try {
            String text = SettingsProblems.utf8(bytes);
            read = JSON.readValue(text, Settings.class);
            if (read == null) {
                throw new IOException("the file holds no settings");
            }
            // The record always says the current version; the file's own says which old defaults it holds.
            read = SettingsUpgrade.upgrade(read, JSON.readTree(text).path("version").asInt(Settings.VERSION));
        } catch (IOException | RuntimeException e) {
            return broken(SettingsProblems.describe(e));
        }
        List<SettingProblem> problems = read.problems();
        if (problems.isEmpty()) {
            return new Loaded(read, null);
        }
        Settings fixed = read;
        for (SettingsGroup g : SettingsGroup.values()) {
            if (!read.problems(g).isEmpty()) {
                fixed = fixed.withDefaults(g);
            }
        }
        Path backup = backup();
        return new Loaded(fixed, "Some settings were invalid and were reset to defaults (" + problems.getFirst()
                + (problems.size() > 1 ? ", and " + (problems.size() - 1) + " more" : "")
                + "). The old file is kept as " + SettingsProblems.quoted(backup) + ".", backup.equals(file) ? null : backup);
    }

    /**
     * Writes the settings atomically.
     *
     * @throws IllegalArgumentException when a value is invalid (nothing is written)
     * @throws UncheckedIOException     when the file cannot be written (the old one is intact)
     */
    public void save(Settings settings) {
        List<SettingProblem> problems = settings.problems();
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid setting " + problems.getFirst());
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            OwnerOnly.createDirectories(file.toAbsolutePath().getParent());
            OwnerOnly.createFile(tmp);
            Files.write(tmp, JSON.writeValueAsBytes(settings));
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // the temporary file is harmless; the real one is untouched
            }
            throw new UncheckedIOException("cannot save settings to " + SettingsProblems.quoted(file) + ": " + e.getMessage(), e);
        }
    }

    /** Serialises to the file's JSON text (for tests and diagnostics). */
    public static String toJson(Settings s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Defaults, with the damaged file kept aside and a notice that says where and what was wrong. */
    private Loaded broken(String why) {
        Path backup = backup();
        if (backup.equals(file)) {
            return new Loaded(Settings.defaults(), "The settings file " + SettingsProblems.quoted(file)
                    + " is damaged: " + why + ". It could not be copied aside, so it is left as it is;"
                    + " defaults are in use until you change a setting.");
        }
        return new Loaded(Settings.defaults(), "The settings file was damaged: " + why
                + ". Defaults are in use; your old file is kept as " + SettingsProblems.quoted(backup) + ".", backup);
    }

    /** Copies (or, when it cannot be read, moves) the current file aside as settings.json.broken-YYYYMMDD-HHMMSS. */
    private Path backup() {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT));
        Path backup = file.resolveSibling(file.getFileName() + ".broken-" + stamp);
        for (int i = 2; Files.exists(backup); i++) {
            backup = file.resolveSibling(file.getFileName() + ".broken-" + stamp + "-" + i);
        }
        try {
            Files.copy(file, backup);
            OwnerOnly.createFile(backup); // a copy gets the umask's mode; the settings are the user's alone
            return backup.toAbsolutePath();
        } catch (IOException e) {
            try {
                // An unreadable file cannot be copied, but it can still be renamed out of the way.
                Files.move(file, backup);
                return backup.toAbsolutePath();
            } catch (IOException e2) {
                return file; // the file stays where it is until the next save
            }
        }
    }
}
