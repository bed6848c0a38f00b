package dev.dictum.app.os.x11;

import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import dev.dictum.app.os.FocusTracker;
import dev.dictum.app.os.TargetWindow;

/** The X11 input focus: read at the press, given back before inserting if something took it. */
public final class X11Focus implements FocusTracker, AutoCloseable {
    private static final int REVERT_TO_PARENT = 2;
    private final XDisplay display = XDisplay.open();

    /** Whether X11 is there to track (Linux with DISPLAY set). */
    public static boolean available() {
        return XDisplay.available();
    }

    @Override
    public synchronized TargetWindow focused() {
        LongByReference w = new LongByReference();
        IntByReference revert = new IntByReference();
        Xlib.INSTANCE.XGetInputFocus(display.handle, w, revert);
        long id = w.getValue();
        return id <= 1 ? TargetWindow.UNKNOWN : new TargetWindow(id, ""); // None (0) and PointerRoot (1)
    }

    @Override
    public synchronized boolean refocus(TargetWindow target) {
        if (target.id() == 0 || focused().id() == target.id()) {
            return true;
        }
        // A BadWindow (the window closed) is reported asynchronously by Xlib's default handler as a
        // message, not fatal for XSetInputFocus; the focus then stays where it is.
        Xlib.INSTANCE.XSetInputFocus(display.handle, target.id(), REVERT_TO_PARENT, 0);
        Xlib.INSTANCE.XSync(display.handle, 0);
        return focused().id() == target.id();
    }

    @Override
    public synchronized void close() {
        display.close();
    }
}
