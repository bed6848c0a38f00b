package dev.dictum.app.cli;

import dev.dictum.app.files.AppDirs;
import dev.dictum.app.launch.DesktopLauncher;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;

/**
 * {@code dictum app} and {@code dictum app -v}, as the desktop's autostart and menu entry start it,
 * go straight to {@link DesktopLauncher} without building picocli's model of every command: picocli 4.7 is
 * Java 5 bytecode, which the JDK's AOT cache cannot hold, so its 174 classes were loaded from the jar,
 * verified and reflected over at every start before the app began (a quarter of launch → hotkey in
 * the class-load log; issue 24 item 6). Every other command line (options, --help, other commands)
 * goes through picocli as before; errors get the same one line and exit code as {@link OneLineErrors}.
 */
final class AppFastPath {
    private AppFastPath() {
    }

    /** For {@code app} alone: whether {@code -v} was given; empty for every other command line. */
    static Optional<Boolean> plainAppStart(String[] args) {
        List<String> a = List.of(args);
        if (a.equals(List.of("app"))) {
            return Optional.of(false);
        }
        return a.equals(List.of("app", "-v")) || a.equals(List.of("app", "--verbose")) ? Optional.of(true)
                : Optional.empty();
    }

    /** The exit code, or null when {@code args} is not a plain {@code app} start (picocli takes it). */
    static Integer run(String[] args) {
        Optional<Boolean> plain = plainAppStart(args);
        if (plain.isEmpty()) {
            return null;
        }
        boolean verbose = plain.get();
        PrintWriter err = new PrintWriter(System.err, true);
        try {
            return new DesktopLauncher(AppDirs.forCurrentUser()).run(verbose, null, err);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            err.println("dictum: error: " + OneLineErrors.describe(e));
            if (verbose) {
                e.printStackTrace(err);
            }
            err.flush();
            return OneLineErrors.INPUT_ERROR;
        }
    }
}
