package dev.dictum.app.os.x11;

import com.sun.jna.Pointer;

/** A connection of Dictum's own to the X server (apart from AWT's and the hook's), used under its lock. */
final class XDisplay implements AutoCloseable {
    final Pointer handle;

    private XDisplay(Pointer handle) {
        this.handle = handle;
    }

    /** @throws IllegalStateException when there is no X display (Wayland-only session, no DISPLAY) */
    static XDisplay open() {
        Pointer p = Xlib.INSTANCE.XOpenDisplay(null);
        if (p == null) {
            throw new IllegalStateException("cannot open the X display " + System.getenv("DISPLAY"));
        }
        XErrors.register(p);
        return new XDisplay(p);
    }

    /** Whether this session has an X11 display to talk to. */
    static boolean available() {
        String d = System.getenv("DISPLAY");
        return d != null && !d.isBlank() && System.getProperty("os.name", "").toLowerCase().contains("linux");
    }

    @Override
    public void close() {
        Xlib.INSTANCE.XCloseDisplay(handle);
        XErrors.unregister(handle);
    }
}
