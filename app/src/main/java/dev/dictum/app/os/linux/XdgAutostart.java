package dev.dictum.app.os.linux;

import dev.dictum.app.os.Autostart;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The XDG autostart entry {@code $XDG_CONFIG_HOME/autostart/dev.dictum.Dictum.desktop} (freedesktop.org's
 * Desktop Application Autostart Specification), written atomically. An entry the user marked
 * {@code Hidden=true} counts as off.
 */
public final class XdgAutostart implements Autostart {

    static final String FILE_NAME = "dev.dictum.Dictum.desktop";

    private final Path entry;

    /** The autostart folder of the user running Dictum ({@code $XDG_CONFIG_HOME}, else ~/.config). */
    public static XdgAutostart forThisUser() {
        return new XdgAutostart(configHome(System.getenv(), Path.of(System.getProperty("user.home"))));
    }

    public XdgAutostart(Path configHome) {
        this.entry = configHome.resolve("autostart").resolve(FILE_NAME);
    }

    /** {@code $XDG_CONFIG_HOME} when set to an absolute path, else {@code ~/.config}, as the spec says. */
    static Path configHome(Map<String, String> env, Path home) {
        String xdg = env.get("XDG_CONFIG_HOME");
        return xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute() ? Path.of(xdg) : home.resolve(".config");
    }

    Path entry() {
        return entry;
    }

    @Override
    public boolean isEnabled() throws IOException {
        if (!Files.isRegularFile(entry)) {
            return false;
        }
        return Files.readAllLines(entry, StandardCharsets.UTF_8).stream().map(String::strip)
                .noneMatch(l -> l.equalsIgnoreCase("Hidden=true") || l.equalsIgnoreCase("X-GNOME-Autostart-enabled=false"));
    }

    @Override
    public void enable(List<String> command) throws IOException {
        if (command.isEmpty()) {
            throw new IllegalArgumentException("autostart needs a command");
        }
        String exec = command.stream().map(XdgAutostart::quote).collect(Collectors.joining(" "));
        String text = String.join("\n",
                "[Desktop Entry]",
                "Type=Application",
                "Name=Dictum",
                "Comment=Push-to-talk dictation, started at login",
                "Exec=" + exec,
                "Icon=dev.dictum.Dictum",
                "Terminal=false",
                "X-GNOME-Autostart-enabled=true",
                "") ;
        Files.createDirectories(entry.getParent());
        Path tmp = entry.resolveSibling(FILE_NAME + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, entry, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    @Override
    public void disable() throws IOException {
        Files.deleteIfExists(entry);
    }

    /**
     * One Exec argument, quoted as the Desktop Entry Specification asks: double quotes around anything
     * with a space or a reserved character, and {@code "`$\} escaped inside; {@code %} doubled.
     */
    static String quote(String arg) {
        String s = arg.replace("%", "%%");
        if (!s.isEmpty() && s.chars().noneMatch(c -> " \t\n\"'\\><~|&;$*?#()`".indexOf(c) >= 0)) {
            return s;
        }
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '`' || c == '$' || c == '\\') {
                b.append('\\');
            }
            b.append(c);
        }
        return b.append('"').toString();
    }
}
