package dev.dictum.app.os.windows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WindowsRunKeyTest {

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
