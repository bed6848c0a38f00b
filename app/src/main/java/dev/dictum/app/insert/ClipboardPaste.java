package dev.dictum.app.insert;

import dev.dictum.app.settings.InsertionSettings;
import java.awt.datatransfer.Clipboard;
import java.awt.datatransfer.ClipboardOwner;
import java.awt.datatransfer.StringSelection;
import java.awt.datatransfer.Transferable;

/**
 * Paste without losing what the user had copied: save the clipboard (every flavour), set the
 * text, wait, send the paste keystroke, wait for the target to fetch the text, restore.
 */
public final class ClipboardPaste {
    private static final ClipboardOwner NOBODY = (c, t) -> { };
    private final Clipboard clipboard;
    private final KeySender keys;

    public ClipboardPaste(Clipboard clipboard, KeySender keys) {
        this.clipboard = clipboard;
        this.keys = keys;
    }

    /** @return {@link System#nanoTime()} right after the paste keystroke */
    public long paste(String text, InsertionSettings s, boolean enter) throws InterruptedException {
        SavedClipboard saved = SavedClipboard.of(contents());
        set(new StringSelection(text));
        try {
            Thread.sleep(s.pasteDelayMillis());
            keys.paste(s.pasteKeystroke());
            long at = System.nanoTime();
            if (enter) {
                keys.enter();
            }
            Thread.sleep(s.restoreDelayMillis());
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
