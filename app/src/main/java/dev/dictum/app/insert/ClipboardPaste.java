package dev.dictum.app.insert;

import dev.dictum.app.settings.InsertionSettings;
import java.awt.datatransfer.Clipboard;
import java.awt.datatransfer.ClipboardOwner;
import java.awt.datatransfer.StringSelection;
import java.awt.datatransfer.DataFlavor;
import java.awt.datatransfer.Transferable;
import java.awt.datatransfer.UnsupportedFlavorException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Paste without losing what the user had copied: save the clipboard (every flavour), set the
 * text, wait, send the paste keystroke, wait until the target has fetched the text (at most the
 * restore delay), restore. Nothing here waits without a bound: with no window manager, AWT's
 * {@code Robot.waitForIdle} stalled 1.5–10 s (issue 13).
 */
public final class ClipboardPaste {
    private static final ClipboardOwner NOBODY = (c, t) -> { };
    /** After the target asked for the text: time for the data to reach it before the clipboard changes. */
    private static final long READ_GRACE_MILLIS = 30;
    private final Clipboard clipboard;
    private final KeySender keys;

    public ClipboardPaste(Clipboard clipboard, KeySender keys) {
        this.clipboard = clipboard;
        this.keys = keys;
    }

    /** @return {@link System#nanoTime()} right after the paste keystroke */
    public long paste(String text, InsertionSettings s, boolean enter) throws InterruptedException {
        SavedClipboard saved = SavedClipboard.of(contents());
        WatchedText offered = new WatchedText(text);
        set(offered);
        try {
            Thread.sleep(s.pasteDelayMillis());
            keys.paste(s.pasteKeystroke());
            long at = System.nanoTime();
            if (enter) {
                keys.enter();
            }
            // Restore once the target has read the text (plus a moment for the transfer to leave),
            // or after the restore delay when it never asks (a target that ignores the keystroke).
            if (offered.read.await(s.restoreDelayMillis(), TimeUnit.MILLISECONDS)) {
                Thread.sleep(Math.min(READ_GRACE_MILLIS, s.restoreDelayMillis()));
            }
            return at;
        } finally {
            set(saved);
        }
    }

    /** Only puts the text on the clipboard (the user pastes it). */
    public long copy(String text) {
        set(new StringSelection(text));
        return System.nanoTime();
    }

    /** The dictated text on the clipboard, noting when a target first reads it. */
    private static final class WatchedText extends StringSelection {
        final CountDownLatch read = new CountDownLatch(1);

        WatchedText(String text) {
            super(text);
        }

        @Override
        public Object getTransferData(DataFlavor flavor) throws UnsupportedFlavorException, java.io.IOException {
            Object data = super.getTransferData(flavor);
            read.countDown();
            return data;
        }
    }

    private Transferable contents() {
        for (int attempt = 0; ; attempt++) {
            try {
                return clipboard.getContents(null);
            } catch (IllegalStateException e) {
                // Windows: another program has the clipboard open for a moment
                if (attempt == 5) {
                    return null;
                }
                sleepQuietly(20);
            }
        }
    }

    private void set(Transferable t) {
        for (int attempt = 0; ; attempt++) {
            try {
                clipboard.setContents(t, NOBODY);
                return;
            } catch (IllegalStateException e) {
                if (attempt == 5) {
                    throw e;
                }
                sleepQuietly(20);
            }
        }
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
