package dev.dictum.app.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AppDirsTest {
    @Test
    void linuxFollowsXdgAndIgnoresRelativeValues() {
        Path home = Path.of("/home/u");
        assertThat(AppDirs.of(Map.of(), "Linux", home))
                .isEqualTo(new AppDirs(Path.of("/home/u/.config/dictum"), Path.of("/home/u/.local/share/dictum")));
        assertThat(AppDirs.of(Map.of("XDG_CONFIG_HOME", "/x/c", "XDG_DATA_HOME", "rel"), "Linux", home))
                .isEqualTo(new AppDirs(Path.of("/x/c/dictum"), Path.of("/home/u/.local/share/dictum")));
    }

    @Test
    void windowsUsesAppData() {
        AppDirs d = AppDirs.of(Map.of("APPDATA", "/r", "LOCALAPPDATA", "/l"), "Windows 11", Path.of("/h"));
        assertThat(d.settingsFile()).isEqualTo(Path.of("/r/Dictum/settings.json"));
        assertThat(d.recordings()).isEqualTo(Path.of("/l/Dictum/recordings"));
    }
}
