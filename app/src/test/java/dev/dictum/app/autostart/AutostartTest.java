package dev.dictum.app.autostart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AutostartTest {

    @TempDir
    Path home;

    @Test
    void xdgEntryIsWrittenReadAndRemoved() throws IOException {
        XdgAutostart a = new XdgAutostart(home.resolve(".config"));
        assertThat(a.isEnabled()).isFalse();
        a.enable(List.of("/opt/dictum/bin/dictum", "app"));
        assertThat(a.isEnabled()).isTrue();
        String entry = Files.readString(home.resolve(".config/autostart/dev.dictum.Dictum.desktop"));
        assertThat(entry).startsWith("[Desktop Entry]\n").contains("\nType=Application\n")
                .contains("\nExec=/opt/dictum/bin/dictum app\n").contains("\nX-GNOME-Autostart-enabled=true\n");
        a.disable();
        assertThat(a.isEnabled()).isFalse();
        assertThat(home.resolve(".config/autostart/dev.dictum.Dictum.desktop")).doesNotExist();
        a.disable(); // twice is fine
    }

    @Test
    void anEntryTheUserHidIsOff() throws IOException {
        XdgAutostart a = new XdgAutostart(home);
        a.enable(List.of("dictum", "app"));
        Files.writeString(a.entry(), Files.readString(a.entry()) + "Hidden=true\n");
        assertThat(a.isEnabled()).isFalse();
    }

    @Test
    void execArgumentsAreQuotedAsTheDesktopEntrySpecAsks() {
        assertThat(XdgAutostart.quote("/opt/dictum/bin/dictum")).isEqualTo("/opt/dictum/bin/dictum");
        assertThat(XdgAutostart.quote("/home/a b/dictum")).isEqualTo("\"/home/a b/dictum\"");
        assertThat(XdgAutostart.quote("say \"$x\"")).isEqualTo("\"say \\\"\\$x\\\"\"");
        assertThat(XdgAutostart.quote("100%")).isEqualTo("100%%");
    }

    @Test
    void xdgConfigHomeIsHonouredOnlyWhenAbsolute() {
        assertThat(XdgAutostart.configHome(Map.of("XDG_CONFIG_HOME", "/cfg"), home)).isEqualTo(Path.of("/cfg"));
        assertThat(XdgAutostart.configHome(Map.of("XDG_CONFIG_HOME", "rel"), home)).isEqualTo(home.resolve(".config"));
        assertThat(XdgAutostart.configHome(Map.of(), home)).isEqualTo(home.resolve(".config"));
    }

    @Test
    void windowsRunKeyIsDrivenThroughRegExe() throws IOException {
        List<List<String>> calls = new ArrayList<>();
        boolean[] present = {false};
        WindowsRunKey key = new WindowsRunKey(args -> {
            calls.add(args);
            return switch (args.getFirst()) {
                case "query" -> new WindowsRunKey.Reg.Result(present[0] ? 0 : 1, "");
                case "add" -> { present[0] = true; yield new WindowsRunKey.Reg.Result(0, ""); }
                case "delete" -> { present[0] = false; yield new WindowsRunKey.Reg.Result(0, ""); }
                default -> throw new AssertionError(args);
            };
        });
        key.enable(List.of("C:\\Program Files\\Dictum\\Dictum.exe", "app"));
        assertThat(calls.getLast()).containsExactly("add", WindowsRunKey.KEY, "/v", "Dictum", "/t", "REG_SZ", "/d",
                "\"C:\\Program Files\\Dictum\\Dictum.exe\" app", "/f");
        assertThat(key.isEnabled()).isTrue();
        key.disable();
        assertThat(calls.getLast()).containsExactly("delete", WindowsRunKey.KEY, "/v", "Dictum", "/f");
        assertThat(key.isEnabled()).isFalse();
    }

    @Test
    void aFailingRegExeIsReportedInOneLine() {
        WindowsRunKey key = new WindowsRunKey(args -> new WindowsRunKey.Reg.Result(1, "ERROR: Access is denied.\r\n"));
        assertThatThrownBy(() -> key.enable(List.of("x.exe"))).isInstanceOf(IOException.class)
                .hasMessage("cannot add Dictum to " + WindowsRunKey.KEY + ": ERROR: Access is denied.");
    }
}
