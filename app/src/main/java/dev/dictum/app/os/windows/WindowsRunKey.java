package dev.dictum.app.os.windows;

import dev.dictum.app.os.Autostart;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The per-user Run key, {@code HKCU\Software\Microsoft\Windows\CurrentVersion\Run}, value "Dictum",
 * through Windows' own {@code reg.exe} (no native binding needed for three calls a year).
 */
public final class WindowsRunKey implements Autostart {

    static final String KEY = "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run";
    static final String VALUE = "Dictum";
    static final Reg REG_EXE = WindowsRunKey::runReg;

    /** Runs {@code reg.exe} with arguments; returns its exit code and output. A seam for tests. */
    @FunctionalInterface
    interface Reg {
        Result run(List<String> args) throws IOException;

        record Result(int exitCode, String output) {}
    }

    private final Reg reg;

    /** The Run key of the user running Dictum, changed through {@code reg.exe}. */
    public static WindowsRunKey forThisUser() {
        return new WindowsRunKey(REG_EXE);
    }

    WindowsRunKey(Reg reg) {
        this.reg = reg;
    }

    @Override
    public boolean isEnabled() throws IOException {
        return reg.run(List.of("query", KEY, "/v", VALUE)).exitCode() == 0;
    }

    @Override
    public void enable(List<String> command) throws IOException {
        Reg.Result r = reg.run(List.of("add", KEY, "/v", VALUE, "/t", "REG_SZ", "/d", commandLine(command), "/f"));
        if (r.exitCode() != 0) {
            throw new IOException("cannot add Dictum to " + KEY + ": " + r.output().strip());
        }
    }

    @Override
    public void disable() throws IOException {
        if (isEnabled()) {
            Reg.Result r = reg.run(List.of("delete", KEY, "/v", VALUE, "/f"));
            if (r.exitCode() != 0) {
                throw new IOException("cannot remove Dictum from " + KEY + ": " + r.output().strip());
            }
        }
    }

    /** The value Windows runs: each argument with spaces in double quotes (paths under Program Files). */
    static String commandLine(List<String> command) {
        List<String> parts = new ArrayList<>();
        for (String a : command) {
            if (a.contains("\"")) {
                throw new IllegalArgumentException("a Run key argument cannot contain a double quote: " + a);
            }
            parts.add(a.isEmpty() || a.contains(" ") || a.contains("\t") ? "\"" + a + "\"" : a);
        }
        return String.join(" ", parts);
    }

    private static Reg.Result runReg(List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add("reg.exe");
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("reg.exe did not answer within 30 s");
            }
            return new Reg.Result(p.exitValue(), out);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running reg.exe", e);
        }
    }
}
