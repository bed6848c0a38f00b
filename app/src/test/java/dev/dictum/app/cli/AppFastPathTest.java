package dev.dictum.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Only the plain desktop start skips picocli; anything with options or another command is parsed and checked as before. */
class AppFastPathTest {
    @Test
    void onlyAppAloneOrWithVerboseSkipsPicocli() {
        assertThat(AppFastPath.plainAppStart(new String[] {"app"})).contains(false);
        assertThat(AppFastPath.plainAppStart(new String[] {"app", "-v"})).contains(true);
        assertThat(AppFastPath.plainAppStart(new String[] {"app", "--verbose"})).contains(true);
        for (String[] other : new String[][] {{}, {"app", "--help"}, {"app", "--model", "/no/such.bin"},
            {"app", "-v", "--model", "x"}, {"transcribe", "a.wav"}, {"--version"}, {"app", "extra"}, {"App"}}) {
            assertThat(AppFastPath.plainAppStart(other)).as(String.join(" ", other)).isEmpty();
            assertThat(AppFastPath.run(other)).as(String.join(" ", other)).isNull();
        }
    }
}
