package dev.dictum.app.os.x11;

import com.sun.jna.Callback;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;

/**
 * The few libX11 calls Dictum needs (LP64 Linux: Window and KeySym are 64-bit {@code long}).
 * Bound by hand: jna-platform's X11 mapping lacks the keyboard-mapping calls.
 */
interface Xlib extends Library {
    Xlib INSTANCE = Native.load("X11", Xlib.class);

    Pointer XOpenDisplay(String name);

    int XCloseDisplay(Pointer display);

    int XDisplayKeycodes(Pointer display, IntByReference minKeycode, IntByReference maxKeycode);

    Pointer XGetKeyboardMapping(Pointer display, byte firstKeycode, int keycodeCount, IntByReference keysymsPerKeycode);

    int XChangeKeyboardMapping(Pointer display, int firstKeycode, int keysymsPerKeycode, long[] keysyms, int numCodes);

    /** XKB's keyboard state ({@code state}: room for an XkbStateRec; byte 0 is the effective group); 0 on success. */
    int XkbGetState(Pointer display, int deviceSpec, Pointer state);

    int XFree(Pointer data);

    int XSync(Pointer display, int discard);

    int XFlush(Pointer display);

    int XGetInputFocus(Pointer display, LongByReference focus, IntByReference revertTo);

    int XSetInputFocus(Pointer display, long focus, int revertTo, long time);

    long XDefaultRootWindow(Pointer display);

    long XStringToKeysym(String name);

    /** KeyCode is an unsigned char: mask the result with 0xff; 0 means no key has the symbol. */
    byte XKeysymToKeycode(Pointer display, long keysym);

    int XGrabKey(Pointer display, int keycode, int modifiers, long grabWindow, int ownerEvents, int pointerMode,
            int keyboardMode);

    int XUngrabKey(Pointer display, int keycode, int modifiers, long grabWindow);

    int XGrabButton(Pointer display, int button, int modifiers, long grabWindow, int ownerEvents, int eventMask,
            int pointerMode, int keyboardMode, long confineTo, long cursor);

    int XUngrabButton(Pointer display, int button, int modifiers, long grabWindow);

    int XPending(Pointer display);

    /** {@code event}: room for an XEvent (a 192-byte union on LP64). */
    int XNextEvent(Pointer display, Pointer event);

    long XInternAtom(Pointer display, String name, int onlyIfExists);

    long XGetSelectionOwner(Pointer display, long selection);

    int XSetSelectionOwner(Pointer display, long selection, long owner, long time);

    long XCreateSimpleWindow(Pointer display, long parent, int x, int y, int width, int height, int borderWidth,
            long border, long background);

    int XDestroyWindow(Pointer display, long window);

    int XSelectInput(Pointer display, long window, long eventMask);

    /** {@code data}: {@code count} items of {@code format} bits (format 32: C longs, 8 bytes each on LP64). */
    int XChangeProperty(Pointer display, long window, long property, long type, int format, int mode, Pointer data,
            int count);

    /** {@code event}: an XEvent the caller filled; nonzero on success. */
    int XSendEvent(Pointer display, long window, int propagate, long eventMask, Pointer event);

    /** Takes the first queued event of {@code type} for {@code window} into {@code event}; nonzero if there was one. */
    int XCheckTypedWindowEvent(Pointer display, long window, int type, Pointer event);

    /** The connection's socket, to wait on with poll(2) without holding the connection. */
    int XConnectionNumber(Pointer display);

    /** The largest request in 4-byte units with BIG-REQUESTS; 0 without it (then {@link #XMaxRequestSize}). */
    long XExtendedMaxRequestSize(Pointer display);

    long XMaxRequestSize(Pointer display);

    /** Xlib's error handler: called for every protocol error of every connection in the process. */
    interface XErrorHandler extends Callback {
        int apply(Pointer display, Pointer errorEvent);
    }

    /** Sets the process-wide error handler; returns the previous one (a function pointer). */
    Pointer XSetErrorHandler(XErrorHandler handler);

    /** libc's poll(2): {@code fds} holds {@code count} pollfd structs (int fd, short events, short revents). */
    interface Libc extends Library {
        Libc INSTANCE = Native.load("c", Libc.class);
        short POLLIN = 1;

        int poll(Pointer fds, long count, int timeoutMillis);
    }

    /** libXtst: a synthetic key event, as if typed. */
    interface Xtst extends Library {
        Xtst INSTANCE = Native.load("Xtst", Xtst.class);

        int XTestFakeKeyEvent(Pointer display, int keycode, int isPress, long delay);
    }

    /** libXfixes: events when a selection (the clipboard) changes owner. */
    interface Xfixes extends Library {
        Xfixes INSTANCE = Native.load("Xfixes", Xfixes.class);
        /** XFixesSelectionNotify's offset from the extension's first event. */
        int SELECTION_NOTIFY = 0;
        /** SetSelectionOwner, SelectionWindowDestroy and SelectionClientClose notify masks. */
        long ALL_OWNER_CHANGES = 1 | 2 | 4;

        int XFixesQueryExtension(Pointer display, IntByReference eventBase, IntByReference errorBase);

        void XFixesSelectSelectionInput(Pointer display, long window, long selection, long eventMask);
    }
}
