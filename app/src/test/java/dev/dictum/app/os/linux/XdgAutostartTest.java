package dev.dictum.app.os.linux;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class XdgAutostartTest {

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
}
