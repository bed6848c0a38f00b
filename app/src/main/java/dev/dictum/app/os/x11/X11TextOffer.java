package dev.dictum.app.os.x11;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.dictum.app.os.ClipboardChanges;
import dev.dictum.app.os.TextOffer;
import java.nio.charset.StandardCharsets;

/**
 * Owns the CLIPBOARD selection through a connection and window of Dictum's own and answers the
 * programs that ask for the text (ICCCM: TARGETS, UTF8_STRING, STRING, TEXT, text/plain). Taking
 * the selection is three round trips on a connection nothing else uses (a time stamp from a property
 * change, the ownership, a check), well under a millisecond; AWT's way goes through its toolkit
 * thread's poll loop and took ~96 ms in 2-3 of 20 pastes (docs/benchmarks.md, session 9).
 *
 * <p>Xlib connections are not thread-safe (AWT never calls XInitThreads), so every call on this one
 * is made under this object's lock. The answering thread waits in poll(2) on the socket without the
 * lock; whoever holds the lock last drains the events Xlib has queued, so none waits for the next
 * byte on the socket.
 */
public final class X11TextOffer implements TextOffer, AutoCloseable {
    private static final int PROPERTY_NOTIFY = 28;
    private static final int SELECTION_CLEAR = 29;
    private static final int SELECTION_REQUEST = 30;
    private static final int SELECTION_NOTIFY = 31;
    private static final long PROPERTY_CHANGE_MASK = 1L << 22;
    private static final int PROP_MODE_REPLACE = 0;
    private static final int PROP_MODE_APPEND = 2;
    private static final long XA_ATOM = 4;
    private static final long XA_INTEGER = 19;
    private static final long XA_STRING = 31;
    /** A safety net only: the socket wakes the thread; this bounds how long a close waits for it. */
    private static final int POLL_MILLIS = 500;
    private final XDisplay display = XDisplay.open();
    private final long window;
    private final long clipboard;
    private final long targets;
    private final long timestamp;
    private final long utf8;
    private final long text;
    private final long plainUtf8;
    private final long plain;
    private final long timeProperty;
    private final long maxBytes;
    private final Memory event = new Memory(192); // an XEvent union on LP64
    private final Memory reply = new Memory(192);
    private Offer offer; // guarded by this; null when the clipboard is not ours
    private boolean closed; // guarded by this

    /** What is on offer: the text in the two encodings asked for, and whom to tell of the first read. */
    private static final class Offer {
        final byte[] utf8;
        final byte[] latin1;
        final long time;
        private Runnable onRead; // null once told

        Offer(String s, long time, Runnable onRead) {
            this.utf8 = s.getBytes(StandardCharsets.UTF_8);
            this.latin1 = s.getBytes(StandardCharsets.ISO_8859_1);
            this.time = time;
            this.onRead = onRead;
        }

        void read() {
            if (onRead != null) {
                onRead.run();
                onRead = null;
            }
        }
    }

    private X11TextOffer() {
        Pointer d = display.handle;
        window = Xlib.INSTANCE.XCreateSimpleWindow(d, Xlib.INSTANCE.XDefaultRootWindow(d), 0, 0, 1, 1, 0, 0, 0);
        Xlib.INSTANCE.XSelectInput(d, window, PROPERTY_CHANGE_MASK);
        clipboard = atom("CLIPBOARD");
        targets = atom("TARGETS");
        timestamp = atom("TIMESTAMP");
        utf8 = atom("UTF8_STRING");
        text = atom("TEXT");
        plainUtf8 = atom("text/plain;charset=utf-8");
        plain = atom("text/plain");
        timeProperty = atom("_DICTUM_TIME");
        long units = Xlib.INSTANCE.XExtendedMaxRequestSize(d);
        maxBytes = Math.max(units, Xlib.INSTANCE.XMaxRequestSize(d)) * 4 - 1024; // the request's own header
        Xlib.INSTANCE.XSync(d, 0);
        Thread.ofPlatform().daemon().name("dictum-clipboard-owner").start(this::answerLoop);
    }

    /**
     * An owner whose window the watch does not count as another program's copy.
     *
     * @throws IllegalStateException when there is no X display
     */
    public static X11TextOffer open(ClipboardChanges watch) {
        X11TextOffer o = new X11TextOffer();
        if (watch instanceof X11ClipboardChanges x) {
            x.alsoOurs(o.window);
        }
        return o;
    }

    @Override
    public synchronized boolean offer(String s, Runnable onRead) {
        // 3 bytes per char bounds the UTF-8 length without encoding twice
        if (closed || 3L * s.length() > maxBytes) {
            return false; // a text beyond one request needs INCR transfers: the toolkit has them
        }
        Pointer d = display.handle;
        long time = serverTime();
        offer = new Offer(s, time, onRead);
        Xlib.INSTANCE.XSetSelectionOwner(d, clipboard, window, time);
        boolean ours = Xlib.INSTANCE.XGetSelectionOwner(d, clipboard) == window; // a round trip: the server has it
        if (!ours) {
            offer = null;
        }
        drain(); // what the round trips queued: the answering thread's poll would not see it
        return ours;
    }

    /**
     * The server's time now, as ICCCM asks an owner to give (a zero-length append to a property of our
     * window, then its PropertyNotify), or CurrentTime (0) if the event did not come.
     */
    private long serverTime() {
        Pointer d = display.handle;
        Xlib.INSTANCE.XChangeProperty(d, window, timeProperty, XA_INTEGER, 32, PROP_MODE_APPEND, reply, 0);
        Xlib.INSTANCE.XSync(d, 0); // the event is sent before the sync's reply, so it is queued now
        while (Xlib.INSTANCE.XCheckTypedWindowEvent(d, window, PROPERTY_NOTIFY, event) != 0) {
            if (event.getLong(40) == timeProperty) {
                return event.getLong(48);
            }
        }
        return 0;
    }

    private void answerLoop() {
        Memory pollfd = new Memory(8);
        int fd;
        synchronized (this) {
            fd = Xlib.INSTANCE.XConnectionNumber(display.handle);
        }
        while (true) {
            pollfd.setInt(0, fd);
            pollfd.setShort(4, Xlib.Libc.POLLIN);
            pollfd.setShort(6, (short) 0);
            Xlib.Libc.INSTANCE.poll(pollfd, 1, POLL_MILLIS);
            synchronized (this) {
                if (closed) {
                    return;
                }
                drain();
            }
        }
    }

    /** Answers every queued event; under the lock. */
    private void drain() {
        Pointer d = display.handle;
        while (Xlib.INSTANCE.XPending(d) > 0) {
            Xlib.INSTANCE.XNextEvent(d, event);
            int type = event.getInt(0);
            if (type == SELECTION_REQUEST) {
                answer();
            } else if (type == SELECTION_CLEAR && event.getLong(40) == clipboard && offer != null
                    && Long.compareUnsigned(event.getLong(48), offer.time) >= 0) {
                offer = null; // another owner now: nothing more to answer
            }
            // A clear older than the offer is the loss of the one before (queued during the offer's round
            // trips): the new ownership stands.
        }
    }

    /** Answers the SelectionRequest in {@link #event}: the data in the requestor's property, then SelectionNotify. */
    private void answer() {
        Pointer d = display.handle;
        long requestor = event.getLong(40);
        long selection = event.getLong(48);
        long target = event.getLong(56);
        long property = event.getLong(64);
        long time = event.getLong(72);
        if (property == 0) {
            property = target; // an obsolete requestor (ICCCM 2.2)
        }
        boolean given = offer != null && selection == clipboard && put(requestor, target, property);
        reply.clear();
        reply.setInt(0, SELECTION_NOTIFY);
        reply.setInt(16, 1); // send_event
        reply.setPointer(24, d);
        reply.setLong(32, requestor);
        reply.setLong(40, selection);
        reply.setLong(48, target);
        reply.setLong(56, given ? property : 0);
        reply.setLong(64, time);
        Xlib.INSTANCE.XSendEvent(d, requestor, 0, 0, reply);
        Xlib.INSTANCE.XFlush(d);
        if (given && target != targets && target != timestamp) {
            offer.read();
        }
    }

    /** Writes the text (or the list of targets) to the requestor's property; false for a target we do not offer. */
    private boolean put(long requestor, long target, long property) {
        Pointer d = display.handle;
        if (target == targets) {
            long[] list = {targets, timestamp, utf8, plainUtf8, text, XA_STRING, plain};
            Memory m = new Memory(8L * list.length);
            m.write(0, list, 0, list.length);
            Xlib.INSTANCE.XChangeProperty(d, requestor, property, XA_ATOM, 32, PROP_MODE_REPLACE, m, list.length);
        } else if (target == timestamp) {
            Memory m = new Memory(8);
            m.setLong(0, offer.time);
            Xlib.INSTANCE.XChangeProperty(d, requestor, property, XA_INTEGER, 32, PROP_MODE_REPLACE, m, 1);
        } else if (target == utf8 || target == plainUtf8 || target == text) {
            bytes(requestor, property, target == plainUtf8 ? plainUtf8 : utf8, offer.utf8);
        } else if (target == XA_STRING || target == plain) {
            bytes(requestor, property, target, offer.latin1); // ICCCM's STRING is Latin-1
        } else {
            return false;
        }
        return true;
    }

    private void bytes(long requestor, long property, long type, byte[] data) {
        Memory m = new Memory(Math.max(1, data.length));
        m.write(0, data, 0, data.length);
        Xlib.INSTANCE.XChangeProperty(display.handle, requestor, property, type, 8, PROP_MODE_REPLACE, m, data.length);
    }

    private long atom(String name) {
        return Xlib.INSTANCE.XInternAtom(display.handle, name, 0);
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            Xlib.INSTANCE.XDestroyWindow(display.handle, window);
            display.close(); // the answering thread's poll sees the socket close and stops at the flag
        }
    }
}
