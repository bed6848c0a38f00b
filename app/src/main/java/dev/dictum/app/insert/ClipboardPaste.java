package dev.dictum.app.insert;

import dev.dictum.app.os.ClipboardChanges;
import dev.dictum.app.os.TextOffer;
import dev.dictum.app.settings.InsertionSettings;
import java.awt.datatransfer.Clipboard;
import java.awt.datatransfer.ClipboardOwner;
import java.awt.datatransfer.StringSelection;
import java.awt.datatransfer.DataFlavor;
import java.awt.datatransfer.Transferable;
import java.awt.datatransfer.UnsupportedFlavorException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Paste without losing what the user had copied: save the clipboard (every flavour), set the
 * text, send the paste keystroke, wait until the target has fetched the text (at most the restore
 * delay), restore. Nothing here waits without a bound: with no window manager, AWT's
 * {@code Robot.waitForIdle} stalled 1.5–10 s (issue 13).
 *
 * <p>The save is made before the release (issue 23): {@link #prepare} reads the clipboard while the
 * user speaks, and {@link ClipboardChanges} says at the paste whether another program changed it
 * since; only then is it read again. The clipboard is Dictum's between setting the text and the
 * restore, so reads and pastes take turns on one lock (a read in that time would keep the dictated
 * text as "what the user had").
 *
 * <p>The text goes on the clipboard through {@link TextOffer} where the platform has a faster way
 * than the toolkit's (X11: AWT's took ~96 ms in 2-3 of 20 pastes); the restore, which must offer
 * every format the user had, stays with the toolkit.
 */
public final class ClipboardPaste {
    private static final Logger LOG = LoggerFactory.getLogger(ClipboardPaste.class);
    /**
     * A paste slower than this logs its parts: session 9's last-mile run had 3 of 20 pastes at ~95 ms
     * (the rest 2-15 ms) inside this method, with no way to tell which step took it.
     */
    private static final long SLOW_PASTE_NANOS = 30_000_000;
    /** After the target asked for the text: time for the data to reach it before the clipboard changes. */
    private static final long READ_GRACE_MILLIS = 30;
    /** How long the restore waits for the toolkit to have seen that the offer took the clipboard from it. */
    private static final long TOOLKIT_LOST_MILLIS = 300;
    private final Clipboard clipboard;
    private final KeySender keys;
    private final ClipboardChanges changes;
    private final TextOffer offer;
    private final Object turn = new Object();
    private final ExecutorService reader = Executors.newSingleThreadExecutor(
            r -> Thread.ofPlatform().name("dictum-clipboard-read").daemon().unstarted(r));
    private Kept kept; // guarded by turn
    private CountDownLatch toolkitLost; // guarded by turn: the toolkit's last contents lost the clipboard

    /** What the clipboard held, and the {@link ClipboardChanges#generation} read before it was read. */
    private record Kept(SavedClipboard contents, long generation) {
    }

    /** A paste that reads the clipboard at every release (no way to tell whether it changed). */
    public ClipboardPaste(Clipboard clipboard, KeySender keys) {
        this(clipboard, keys, ClipboardChanges.UNKNOWN);
    }

    /** A paste that puts its text on the clipboard through the toolkit. */
    public ClipboardPaste(Clipboard clipboard, KeySender keys, ClipboardChanges changes) {
        this(clipboard, keys, changes, TextOffer.NONE);
    }

    public ClipboardPaste(Clipboard clipboard, KeySender keys, ClipboardChanges changes, TextOffer offer) {
        this.clipboard = clipboard;
        this.keys = keys;
        this.changes = changes;
        this.offer = offer;
    }

    /** A recording started: read the clipboard now, in the background, unless what is kept is current. */
    public void prepare() {
        if (changes.generation() >= 0) {
            reader.execute(() -> {
                synchronized (turn) {
                    current();
                }
            });
        }
    }

    /** @return {@link System#nanoTime()} right after the paste keystroke */
    public long paste(String text, InsertionSettings s, boolean enter) throws InterruptedException {
        long t0 = System.nanoTime();
        synchronized (turn) {
            long t1 = System.nanoTime();
            Current now = current();
            SavedClipboard saved = now.contents();
            long t2 = System.nanoTime();
            WatchedText offered = new WatchedText(text);
            boolean ownWay = offer.offer(text, offered.read::countDown);
            if (!ownWay) {
                set(offered);
                changes.ownedByUs();
            }
            long t3 = System.nanoTime();
            try {
                if (s.pasteDelayMillis() > 0) {
                    Thread.sleep(s.pasteDelayMillis());
                }
                keys.paste(s.pasteKeystroke());
                long at = System.nanoTime();
                if (at - t0 > SLOW_PASTE_NANOS) {
                    LOG.info("slow paste: waited {} ms for the clipboard reader, clipboard {} {} ms, set {} {} ms, "
                            + "delay and keystroke {} ms", ms(t1 - t0), now.wasKept() ? "kept" : "read again", ms(t2 - t1),
                            ownWay ? "by Dictum" : "by the toolkit", ms(t3 - t2), ms(at - t3));
                }
                // Restore once the target has read the text (plus a moment for the transfer to leave),
                // or after the restore delay when it never asks (a target that ignores the keystroke).
                if (offered.read.await(s.restoreDelayMillis(), TimeUnit.MILLISECONDS)) {
                    Thread.sleep(Math.min(READ_GRACE_MILLIS, s.restoreDelayMillis()));
                }
                // Enter only once the text has landed: X11 targets fetch the selection after the
                // keystroke (round trips), so an Enter sent at once could arrive before the text.
                if (enter) {
                    keys.enter();
                }
                return at;
            } finally {
                if (ownWay) {
                    awaitToolkitLost();
                }
                set(saved);
                changes.ownedByUs(); // the toolkit's window: learnt here when the text went the platform's way
                kept = new Kept(saved, changes.generation()); // what the clipboard holds now
            }
        }
    }

    /** Only puts the text on the clipboard (the user pastes it). */
    public long copy(String text) {
        synchronized (turn) {
            set(new StringSelection(text));
            kept = null; // the user's clipboard is now the text: read it again next time
            return System.nanoTime();
        }
    }

    /**
     * Before the toolkit takes the clipboard back: it must have handled the loss the offer caused. AWT
     * handles X11's SelectionClear on its toolkit thread, late at times, and without looking at the
     * event's time: a loss handled after the restore dropped the restored contents while the server
     * still named AWT the owner, and the user's clipboard read empty (1 of 40 in a loop, 2 of 40 end to
     * end). Its ClipboardOwner hears of the loss after that handling.
     */
    private void awaitToolkitLost() throws InterruptedException {
        if (toolkitLost == null) {
            return;
        }
        long t0 = System.nanoTime();
        if (!toolkitLost.await(TOOLKIT_LOST_MILLIS, TimeUnit.MILLISECONDS)) {
            LOG.info("the toolkit had not seen the clipboard go after {} ms; restoring anyway", TOOLKIT_LOST_MILLIS);
        } else if (System.nanoTime() - t0 > SLOW_PASTE_NANOS / 3) {
            LOG.info("the restore waited {} ms for the toolkit to see the clipboard go", ms(System.nanoTime() - t0));
        }
    }

    private static String ms(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.1f", nanos / 1e6);
    }

    /** The clipboard's contents, and whether they are the copy kept from before. */
    private record Current(SavedClipboard contents, boolean wasKept) {
    }

    /**
     * The clipboard's contents: the kept copy while no other program changed it, else read now. Under
     * {@code turn}. The generation is read once, before any read of the clipboard: a change during the
     * read leaves the new copy stale, and the next call reads again.
     */
    private Current current() {
        long generation = changes.generation();
        if (kept != null && generation >= 0 && kept.generation() == generation) {
            return new Current(kept.contents(), true);
        }
        SavedClipboard read = SavedClipboard.of(contents());
        kept = new Kept(read, generation);
        return new Current(read, false);
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

    /** The toolkit's clipboard holds {@code t}; {@link #toolkitLost} counts down when it stops holding it. */
    private void set(Transferable t) {
        CountDownLatch lost = new CountDownLatch(1);
        ClipboardOwner owner = (c, contents) -> lost.countDown();
        for (int attempt = 0; ; attempt++) {
            try {
                clipboard.setContents(t, owner);
                toolkitLost = lost;
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
