package dev.dictum.app.launch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The start-up profile's CPU times read the right fields of {@code /proc/.../stat}, whatever the thread is called. */
class StartupProfileTest {
    @Test
    void utimeAndStimeAreFieldsFourteenAndFifteenAfterANameWithSpacesAndParentheses() {
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime ...
        String stat = "4242 (dictum (x) y) S 1 4242 4242 0 -1 4194560 900 0 3 0 137 21 5 7 20 0 30 0 1234";
        assertThat(StartupProfile.cpuMillis(stat)).isEqualTo((137 + 21) * 10);
    }

    @Test
    void theLineNamesEveryPhaseInOrderAndTheHotkeyTimeIsTheirSum() throws Exception {
        StartupProfile p = new StartupProfile();
        Thread.sleep(30);
        p.mark("first");
        busy(40);
        p.mark("second");
        String line = p.line();
        assertThat(line).startsWith("start-up: hotkey live ").contains("launcher and JVM ").containsSubsequence(
                "launcher and JVM", ", first ", ", second ");
        long total = Long.parseLong(line.replaceAll("^start-up: hotkey live (\\d+) ms.*$", "$1"));
        long sum = 0;
        for (String phase : line.replaceAll("^.*\\):", "").replaceAll(";.*$", "").split(",")) {
            sum += Long.parseLong(phase.trim().replaceAll("^[^0-9]*(\\d+).*$", "$1"));
        }
        assertThat(sum).as(line).isEqualTo(total);
        long first = Long.parseLong(line.replaceAll("^.*, first (\\d+).*$", "$1"));
        assertThat(first).as(line).isGreaterThanOrEqualTo(30);
        if (StartupProfile.ticks(java.nio.file.Path.of("/proc/thread-self/stat")) >= 0) {
            assertThat(line).containsPattern(", second \\d+ \\(\\d+\\)").containsPattern("; process CPU \\d+ ms \\([^,()]+ \\d+(, [^,()]+ \\d+){0,5}\\)$");
        }
    }

    private static void busy(long millis) {
        long until = System.nanoTime() + millis * 1_000_000;
        double x = 0;
        while (System.nanoTime() < until) {
            x += Math.sqrt(x + 1);
        }
        assertThat(x).isPositive();
    }
}
