package dev.dictum.app.os.x11;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dictum.app.os.ClipboardChanges;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Needs an X display with XFixes (the e2e script's Xvfb, or a desktop) and xclip; skipped without them. */
class X11ClipboardChangesTest {

    @Test
    void anotherProgramsCopyIsCountedAndNothingElseIs() throws Exception {
        assumeTrue(X11Focus.available(), "skipped: no X display (DISPLAY is not set)");
        ClipboardChanges watch = X11ClipboardChanges.open();
        assumeTrue(watch.generation() >= 0, "skipped: the X server has no XFixes");
        long before = watch.generation();
        Thread.sleep(300);
        assertThat(watch.generation()).as("nobody copied").isEqualTo(before);
        copyWithXclip("first");
        long afterFirst = awaitAbove(watch, before);
        assertThat(afterFirst).isGreaterThan(before);
        copyWithXclip("second"); // a new owner again
        assertThat(awaitAbove(watch, afterFirst)).isGreaterThan(afterFirst);
    }

    private static void copyWithXclip(String text) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder("xclip", "-selection", "clipboard", "-loops", "1").start();
        } catch (java.io.IOException e) {
            assumeTrue(false, "skipped: no xclip");
            return;
        }
        p.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close(); // xclip takes the selection, then serves one request and exits
        Thread.sleep(50);
        new ProcessBuilder("xclip", "-o", "-selection", "clipboard").start().waitFor(5, TimeUnit.SECONDS);
        p.waitFor(5, TimeUnit.SECONDS);
    }

    private static long awaitAbove(ClipboardChanges watch, long value) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (watch.generation() <= value && System.nanoTime() < until) {
            Thread.sleep(5);
        }
        return watch.generation();
    }
}
