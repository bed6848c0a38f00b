package dev.dictum.app.insert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dictum.app.os.ClipboardChanges;
import dev.dictum.app.os.x11.X11TextOffer;
import dev.dictum.app.settings.InsertionSettings;
import dev.dictum.app.settings.PasteKeystroke;
import java.awt.GraphicsEnvironment;
import java.awt.Toolkit;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Pastes in a row on a real X server: the text offered by Dictum's own selection owner, the user's
 * clipboard restored through AWT each time. AWT handles the loss the offer causes on its toolkit
 * thread, late when the keystroke's sync on AWT's connection has queued the event unseen; a loss
 * handled after the restore left the clipboard empty (2 of 30 end to end). The keystroke is AWT's
 * Robot, as in the app; the target reads the text as a program does (xclip, a real X client). Needs
 * Xvfb and xclip.
 */
class X11PasteRestoreTest {

    @Test
    void everyPasteOffersTheTextAndGivesTheUsersCopyBack() throws Exception {
        assumeTrue(System.getenv("DISPLAY") != null && !GraphicsEnvironment.isHeadless(), "skipped: no X display");
        assumeTrue(xclipWorks(), "skipped: no xclip");
        Process owner = new ProcessBuilder("xclip", "-selection", "clipboard", "-quiet", "-i").start();
        owner.getOutputStream().write("the user's copy".getBytes(StandardCharsets.UTF_8));
        owner.getOutputStream().close();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!"the user's copy".equals(xclipOut()) && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        List<String> read = new ArrayList<>();
        RobotKeys keys = new RobotKeys(); // XTest on AWT's connection, whose sync queues AWT's events unseen
        KeySender target = new KeySender() {
            @Override
            public void paste(PasteKeystroke k) {
                keys.paste(PasteKeystroke.SHIFT_INSERT); // no window has the focus: the keys go nowhere
                read.add(xclipOutQuietly());
            }

            @Override
            public void enter() {
            }
        };
        InsertionSettings s = InsertionSettings.defaults().withPasteDelayMillis(0).withRestoreDelayMillis(0); // the restore right after the read: the narrowest window
        List<String> afterwards = new ArrayList<>();
        try (X11TextOffer offer = X11TextOffer.open(ClipboardChanges.UNKNOWN)) {
            ClipboardPaste paste = new ClipboardPaste(Toolkit.getDefaultToolkit().getSystemClipboard(), target,
                    ClipboardChanges.UNKNOWN, offer);
            for (int i = 0; i < 100; i++) {
                paste.paste("dictated " + i, s, false);
                afterwards.add(xclipOut());
            }
        } finally {
            owner.destroy();
        }
        List<String> offered = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            offered.add("dictated " + i);
        }
        assertThat(read).as("what the target read at each keystroke").isEqualTo(offered);
        assertThat(afterwards).as("the clipboard after each paste").containsOnly("the user's copy");
    }

    private static boolean xclipWorks() {
        try {
            return new ProcessBuilder("xclip", "-version").redirectErrorStream(true).start().waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String xclipOutQuietly() {
        try {
            return xclipOut();
        } catch (Exception e) {
            return "xclip failed: " + e;
        }
    }

    private static String xclipOut() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("xclip", "-o", "-selection", "clipboard").start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(10, TimeUnit.SECONDS);
        return out;
    }
}
