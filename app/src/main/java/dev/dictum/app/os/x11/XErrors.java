package dev.dictum.app.os.x11;

import com.sun.jna.CallbackReference;
import com.sun.jna.Function;
import com.sun.jna.Pointer;
import java.awt.Toolkit;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps an X protocol error on Dictum's own connections from ending the process. Xlib's default
 * handler exits, and such errors are not exotic: giving the focus back to a window that was closed
 * meanwhile is a BadWindow. The handler is process-wide, so it is chained: errors on Dictum's
 * displays are ignored (the calls that can fail check their result another way), every other
 * error goes to the handler that was there before (AWT's, which installs itself when the toolkit
 * starts; the toolkit is started first so that it is the one chained to). GDK (JavaFX's GTK, started
 * after the hotkey is live) installs a handler of its own that ignores every error not on its own
 * display, which would silence the BadAccess of a grab: {@link #reinstate} puts the chain back.
 */
public final class XErrors {
    private static final Set<Pointer> OURS = ConcurrentHashMap.newKeySet();
    /** The error code of the last error on each of our displays (BadAccess 10: another client's grab). */
    private static final Map<Pointer, Integer> LAST = new ConcurrentHashMap<>();
    /** Offset of {@code error_code} in XErrorEvent on LP64: int type, Display*, XID, unsigned long serial. */
    private static final int ERROR_CODE_OFFSET = 32;
    private static Xlib.XErrorHandler handler; // a strong reference: JNA callbacks must not be collected
    private static Pointer previous;

    private XErrors() {
    }

    static synchronized void register(Pointer display) {
        OURS.add(display);
        if (handler == null) {
            Toolkit.getDefaultToolkit(); // AWT first, so that its handler is the one we chain to
            handler = (d, event) -> {
                if (OURS.contains(d)) {
                    LAST.put(d, event.getByte(ERROR_CODE_OFFSET) & 0xff);
                    return 0;
                }
                Pointer prev = previous;
                return prev == null ? 0 : Function.getFunction(prev).invokeInt(new Object[] {d, event});
            };
            previous = Xlib.INSTANCE.XSetErrorHandler(handler);
        }
    }

    /**
     * Makes Dictum's handler (which passes every error not on its displays to AWT's) the process's again,
     * once another toolkit replaced it; nothing when Dictum opened no display.
     *
     * @return whether another handler had replaced Dictum's
     */
    public static synchronized boolean reinstate() {
        if (handler == null) {
            return false;
        }
        Pointer was = Xlib.INSTANCE.XSetErrorHandler(handler);
        return !CallbackReference.getFunctionPointer(handler).equals(was);
    }

    static void unregister(Pointer display) {
        OURS.remove(display);
        LAST.remove(display);
    }

    /** The code of the last error on {@code display} since the previous call (after an XSync), or 0. */
    static int takeLast(Pointer display) {
        Integer code = LAST.remove(display);
        return code == null ? 0 : code;
    }
}
