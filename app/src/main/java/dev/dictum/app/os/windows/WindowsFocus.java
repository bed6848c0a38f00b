package dev.dictum.app.os.windows;

import com.sun.jna.Pointer;
import com.sun.jna.platform.win32.User32;
import com.sun.jna.platform.win32.WinDef;
import dev.dictum.app.os.FocusTracker;
import dev.dictum.app.os.TargetWindow;

/** The foreground window on Windows: read at the press, brought back before inserting. */
public final class WindowsFocus implements FocusTracker {

    public static boolean available() {
        return System.getProperty("os.name", "").toLowerCase().startsWith("windows");
    }

    @Override
    public TargetWindow focused() {
        WinDef.HWND h = User32.INSTANCE.GetForegroundWindow();
        return h == null ? TargetWindow.UNKNOWN : new TargetWindow(Pointer.nativeValue(h.getPointer()), "");
    }

    @Override
    public boolean refocus(TargetWindow target) {
        if (target.id() == 0 || focused().id() == target.id()) {
            return true;
        }
        WinDef.HWND h = new WinDef.HWND(new Pointer(target.id()));
        if (!User32.INSTANCE.IsWindow(h)) {
            return false;
        }
        return User32.INSTANCE.SetForegroundWindow(h);
    }
}
