package dev.dictum.app.os.x11;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The end-to-end script's target window (scripts/e2e/target_window.py: a Tk text widget, a real X
 * client that translates its key events with Xlib), started with the focus, for tests that type
 * into it. {@link #stall()} stops the process (SIGSTOP) as a loaded machine deschedules it: it reads
 * nothing from the X server until {@link #resume()}.
 */
final class TkTarget implements AutoCloseable {
    private static final Path SCRIPT = findScript();
    private static final String PYTHON = Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";
    private final Process process;
    private final Path out;

    private TkTarget(Process process, Path out) {
        this.process = process;
        this.out = out;
    }

    /** Whether python3 with Tk is there to run the target; a test without it is skipped. */
    static boolean available() {
        try {
            Process p = new ProcessBuilder(PYTHON, "-c", "import tkinter").redirectErrorStream(true).start();
            return SCRIPT != null && p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static TkTarget start(Path dir) throws IOException, InterruptedException {
        Path out = dir.resolve("typed.txt");
        Process p = new ProcessBuilder(PYTHON, SCRIPT.toString(), out.toString(), "--focus")
                .redirectErrorStream(true).redirectOutput(dir.resolve("target.log").toFile()).start();
        TkTarget t = new TkTarget(p, out);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.exists(out)) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                t.close();
                throw new IllegalStateException("the target window did not start: "
                        + Files.readString(dir.resolve("target.log")));
            }
            Thread.sleep(20);
        }
        return t;
    }

    /** What the window holds (as of its last write, every 100 ms). */
    String text() throws IOException {
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    /** Waits until the window holds {@code expected} (true), or for {@code seconds} (false: it holds something else). */
    boolean awaitText(String expected, int seconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            if (text().equals(expected)) {
                return true;
            }
            Thread.sleep(20);
        }
        return false;
    }

    void stall() throws IOException, InterruptedException {
        signal("-STOP");
    }

    void resume() throws IOException, InterruptedException {
        signal("-CONT");
    }

    private void signal(String which) throws IOException, InterruptedException {
        Process k = new ProcessBuilder("kill", which, Long.toString(process.pid())).inheritIO().start();
        if (k.waitFor() != 0) {
            throw new IllegalStateException("kill " + which + " failed");
        }
    }

    @Override
    public void close() {
        try {
            signal("-CONT"); // a stopped process would not end on SIGTERM
        } catch (IOException | RuntimeException e) {
            // it may have ended already
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.destroy();
    }

    private static Path findScript() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path s = d.resolve("scripts/e2e/target_window.py");
            if (Files.isRegularFile(s)) {
                return s;
            }
        }
        return null;
    }
}
