package dev.dictum.app.os.x11;

import com.sun.jna.Memory;
import com.sun.jna.ptr.IntByReference;
import dev.dictum.app.os.ClipboardChanges;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the CLIPBOARD selection's changes of owner through XFixes, on a connection and daemon
 * thread of its own (blocked in XNextEvent; nothing else uses that connection). Changes made by
 * Dictum's own clipboard windows (AWT's, learnt after the first paste, and {@link X11TextOffer}'s)
 * are not counted: the text it pastes and the contents it restores are not the user's copy.
 */
public final class X11ClipboardChanges implements ClipboardChanges {
    /** XFixesSelectionNotifyEvent on LP64: type, serial, send_event, display, window, subtype, then owner. */
    private static final int OWNER_OFFSET = 48;
    private final AtomicLong changes = new AtomicLong();
    private final XDisplay query = XDisplay.open(); // for XGetSelectionOwner, under this object's lock
    private final long clipboardAtom;
    private volatile long ours;
    private volatile long offerWindow; // X11TextOffer's, which owns the clipboard while a paste offers its text

    private X11ClipboardChanges(XDisplay events, int notifyEvent) {
        clipboardAtom = Xlib.INSTANCE.XInternAtom(query.handle, "CLIPBOARD", 0);
        Xlib.Xfixes.INSTANCE.XFixesSelectSelectionInput(events.handle, Xlib.INSTANCE.XDefaultRootWindow(events.handle),
                Xlib.INSTANCE.XInternAtom(events.handle, "CLIPBOARD", 0), Xlib.Xfixes.ALL_OWNER_CHANGES);
        Xlib.INSTANCE.XSync(events.handle, 0);
        Thread.ofPlatform().daemon().name("dictum-clipboard-watch").start(() -> {
            Memory event = new Memory(192); // an XEvent union
            while (true) {
                Xlib.INSTANCE.XNextEvent(events.handle, event);
                if (event.getInt(0) == notifyEvent) {
                    long owner = event.getLong(OWNER_OFFSET);
                    if (owner == 0 || owner != ours && owner != offerWindow) {
                        changes.incrementAndGet(); // another program's copy, or the owner went away
                    }
                }
            }
        });
    }

    /** A watch, or {@link ClipboardChanges#UNKNOWN} when the server has no XFixes. */
    public static ClipboardChanges open() {
        XDisplay events = XDisplay.open();
        IntByReference eventBase = new IntByReference();
        IntByReference errorBase = new IntByReference();
        if (Xlib.Xfixes.INSTANCE.XFixesQueryExtension(events.handle, eventBase, errorBase) == 0) {
            events.close();
            return ClipboardChanges.UNKNOWN;
        }
        return new X11ClipboardChanges(events, eventBase.getValue() + Xlib.Xfixes.SELECTION_NOTIFY);
    }

    @Override
    public long generation() {
        return changes.get();
    }

    /** Dictum's own selection window ({@link X11TextOffer}): its ownership is not another program's copy. */
    void alsoOurs(long window) {
        offerWindow = window;
    }

    /** The owner now is AWT's clipboard window, the same for the whole run (one round trip, the first time). */
    @Override
    public synchronized void ownedByUs() {
        if (ours == 0) {
            ours = Xlib.INSTANCE.XGetSelectionOwner(query.handle, clipboardAtom);
        }
    }
}
