package dev.dictum.app.os.x11;

import com.sun.jna.Memory;
import dev.dictum.app.os.Grab;
import dev.dictum.app.os.KeyGrabs;
import dev.dictum.app.os.Modifier;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Passive grabs on the root window, the one X11 way to keep a key combination from the focused
 * window: the server delivers a grabbed press, and everything until its release, to this client
 * only. The global hook (JNativeHook, through the RECORD extension) still sees every event, so
 * the hotkeys work as before; only the focused window no longer gets them. A grab is exact about
 * modifiers, so each combination is grabbed again with CapsLock, NumLock and both.
 *
 * <p>Events delivered to this connection are read and dropped by a small thread, which also owns
 * the connection's calls (under this object's lock).
 */
public final class X11Grabs implements KeyGrabs {
    private static final Logger LOG = LoggerFactory.getLogger(X11Grabs.class);
    private static final int SHIFT_MASK = 1;
    private static final int LOCK_MASK = 2;
    private static final int CONTROL_MASK = 4;
    private static final int MOD1_MASK = 8; // Alt
    private static final int MOD2_MASK = 16; // NumLock
    private static final int MOD4_MASK = 64; // Super
    private static final int ANY_MODIFIER = 1 << 15;
    private static final List<Integer> LOCKS = List.of(0, LOCK_MASK, MOD2_MASK, LOCK_MASK | MOD2_MASK);
    private static final int GRAB_MODE_ASYNC = 1;
    private static final int BUTTON_PRESS_RELEASE_MASK = 4 | 8;
    private static final int BAD_ACCESS = 10;

    private final XDisplay display = XDisplay.open();
    private final long root = Xlib.INSTANCE.XDefaultRootWindow(display.handle);
    private final Set<Grab> held = new HashSet<>();
    private final Memory event = new Memory(192);
    private final Thread drain;
    private volatile boolean open = true;

    public X11Grabs() {
        drain = Thread.ofPlatform().name("dictum-x11-grabs").daemon().start(this::drain);
    }

    /** Whether X11 is there to grab on (Linux with DISPLAY set). */
    public static boolean available() {
        return XDisplay.available();
    }

    @Override
    public synchronized Map<Grab, String> hold(Set<Grab> grabs) {
        Map<Grab, String> failed = new LinkedHashMap<>();
        for (Grab g : Set.copyOf(held)) {
            if (!grabs.contains(g)) {
                change(g, false);
                if (g.anyModifiers()) {
                    change(g.exact(), false); // the fallback, if that is what was held
                }
                held.remove(g);
            }
        }
        for (Grab g : grabs) {
            if (held.contains(g)) {
                continue;
            }
            String why = change(g, true);
            if (why != null && g.anyModifiers()) {
                // AnyModifier fails whole when another client holds any one variant (desktops grab
                // Alt+Escape, Ctrl+Alt+Escape): hold at least the key itself, with the lock masks.
                // While the dictation hotkey is held its own grab covers the rest.
                Grab exact = g.exact();
                if (change(exact, true) == null) {
                    LOG.info("{}: {}; holding {} alone", g, why, exact);
                    held.add(g);
                    continue;
                }
                change(exact, false);
            }
            if (why == null) {
                held.add(g);
            } else {
                change(g, false); // the lock-mask variants that did succeed
                failed.put(g, why);
            }
        }
        return failed;
    }

    @Override
    public void close() {
        open = false;
        synchronized (this) {
            hold(Set.of());
            display.close();
        }
    }

    /** Grabs (or ungrabs) every lock-mask variant; null when that worked, else why not. */
    private String change(Grab g, boolean grab) {
        int mods = mask(g.modifiers());
        List<Integer> variants = g.anyModifiers() ? List.of(ANY_MODIFIER) : LOCKS;
        XErrors.takeLast(display.handle);
        if (g.keyName() == null) {
            int button = X11KeySyms.xButton(g.mouseButton());
            for (int lock : variants) {
                int m = g.anyModifiers() ? lock : mods | lock;
                if (grab) {
                    Xlib.INSTANCE.XGrabButton(display.handle, button, m, root, 0, BUTTON_PRESS_RELEASE_MASK,
                            GRAB_MODE_ASYNC, GRAB_MODE_ASYNC, 0, 0);
                } else {
                    Xlib.INSTANCE.XUngrabButton(display.handle, button, m, root);
                }
            }
        } else {
            String name = X11KeySyms.keysymName(g.keyName());
            long sym = Xlib.INSTANCE.XStringToKeysym(name);
            int code = sym == 0 ? 0 : Xlib.INSTANCE.XKeysymToKeycode(display.handle, sym) & 0xff;
            if (code == 0) {
                return "the keyboard has no key " + name;
            }
            for (int lock : variants) {
                int m = g.anyModifiers() ? lock : mods | lock;
                if (grab) {
                    Xlib.INSTANCE.XGrabKey(display.handle, code, m, root, 0, GRAB_MODE_ASYNC, GRAB_MODE_ASYNC);
                } else {
                    Xlib.INSTANCE.XUngrabKey(display.handle, code, m, root);
                }
            }
        }
        Xlib.INSTANCE.XSync(display.handle, 0);
        int error = XErrors.takeLast(display.handle);
        if (!grab || error == 0) {
            return null;
        }
        return error == BAD_ACCESS ? "another program holds it" : "X error " + error;
    }

    private static int mask(Set<Modifier> mods) {
        int m = 0;
        for (Modifier mod : mods) {
            m |= switch (mod) {
                case SHIFT -> SHIFT_MASK;
                case CTRL -> CONTROL_MASK;
                case ALT -> MOD1_MASK;
                case SUPER -> MOD4_MASK;
            };
        }
        return m;
    }

    /** Reads and drops what the grabs deliver here (the hook has seen it already). */
    private void drain() {
        while (open) {
            synchronized (this) {
                if (!open) {
                    return;
                }
                while (Xlib.INSTANCE.XPending(display.handle) > 0) {
                    Xlib.INSTANCE.XNextEvent(display.handle, event);
                }
            }
            try {
                Thread.sleep(25);
            } catch (InterruptedException e) {
                return;
            }
        }
        LOG.debug("grab thread ended");
    }
}
