package dev.dictum.app.os.windows;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.win32.W32APIOptions;
import dev.dictum.app.os.ClipboardChanges;

/**
 * Windows' clipboard sequence number, which the system raises on every change of the clipboard:
 * no listener window is needed to know whether the copy read while the user spoke is still current.
 * Dictum's own changes raise it too; the paste reads it after its restore, so they do not count.
 */
public final class WindowsClipboardChanges implements ClipboardChanges {
    interface User32Clipboard extends Library {
        User32Clipboard INSTANCE = Native.load("user32", User32Clipboard.class, W32APIOptions.DEFAULT_OPTIONS);

        int GetClipboardSequenceNumber();
    }

    @Override
    public long generation() {
        int n = User32Clipboard.INSTANCE.GetClipboardSequenceNumber();
        return n == 0 ? -1 : Integer.toUnsignedLong(n); // 0: no access to the clipboard's window station
    }
}
