package dev.dictum.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code dictum app}'s command-line errors (the app itself is tested end to end by scripts/e2e-desktop.sh). */
class CliAppTest {

    @Test
    void aMissingModelOrAnUnknownOptionIsOneLineAndNothingStarts() {
        CliRun missing = CliRun.of("app", "--model", "/no/such/model.bin");
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.errLines()[0]).isEqualTo("dictum: no such model: /no/such/model.bin");
        CliRun unknown = CliRun.of("app", "--hotkey", "F9");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.errLines()[0]).startsWith("dictum: ").contains("--hotkey");
    }

    @Test
    void theTopLevelHelpNamesTheApp() {
        CliRun help = CliRun.of("--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.out()).contains("app ").contains("dictate into any window");
    }
}
