package dev.dictum.app.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * xclip, a real X client, as the tests' other program on the clipboard: it reads the CLIPBOARD
 * selection in a given target and takes it with a text of its own. Tests that use it skip without it.
 */
public final class Xclip {
    private Xclip() {
    }

    /** Whether xclip is installed (the e2e scripts install it; CI runs these tests under Xvfb). */
    public static boolean available() {
        try {
            return new ProcessBuilder("xclip", "-version").redirectErrorStream(true).start().waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The clipboard's contents in {@code target} (e.g. UTF8_STRING, STRING, TARGETS), as xclip prints them. */
    public static byte[] read(String target) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("xclip", "-o", "-selection", "clipboard", "-t", target).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("xclip did not answer in 10 s");
        }
        return out;
    }

    /** The clipboard's text (UTF8_STRING). */
    public static String text() throws IOException, InterruptedException {
        return new String(read("UTF8_STRING"), StandardCharsets.UTF_8);
    }

    /**
     * Takes the clipboard with {@code text} and keeps it (xclip stays in the foreground while it owns
     * the selection) until the process is destroyed; returns once a read gives the text back.
     */
    public static Process own(String text) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("xclip", "-selection", "clipboard", "-quiet", "-i").start();
        p.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!text.equals(text()) && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        return p;
    }
}
