package dev.dictum.app.os.windows;

import com.sun.jna.platform.win32.BaseTSD;
import com.sun.jna.platform.win32.User32;
import com.sun.jna.platform.win32.WinDef;
import com.sun.jna.platform.win32.WinUser;
import dev.dictum.app.os.UnicodeTyper;

/**
 * Types any Unicode text on Windows: SendInput with KEYEVENTF_UNICODE, one UTF-16 code unit per
 * event (a surrogate pair is two), which Windows delivers as WM_CHAR whatever the layout.
 * Newlines are sent as the Enter key, which applications treat as a line break. With no delay
 * between characters the whole text is one SendInput call (issue 23: a sentence in milliseconds).
 */
public final class WindowsTyper implements UnicodeTyper {
    private static final int KEYEVENTF_UNICODE = 0x0004;
    private static final int KEYEVENTF_KEYUP = 0x0002;
    private static final int VK_RETURN = 0x0D;

    @Override
    public void type(String text, int delayMillis) throws InterruptedException {
        String units = text.replace("\r", "");
        if (delayMillis <= 0) {
            send(units);
            return;
        }
        for (int i = 0; i < units.length(); i++) {
            send(units.substring(i, i + 1));
            Thread.sleep(delayMillis);
        }
    }

    /** A key down and up for each UTF-16 unit, in one SendInput call. */
    private static void send(String units) {
        if (units.isEmpty()) {
            return;
        }
        WinUser.INPUT[] inputs = (WinUser.INPUT[]) new WinUser.INPUT().toArray(2 * units.length());
        for (int k = 0; k < inputs.length; k++) {
            char c = units.charAt(k / 2);
            inputs[k].type = new WinDef.DWORD(WinUser.INPUT.INPUT_KEYBOARD);
            inputs[k].input.setType("ki");
            WinUser.KEYBDINPUT ki = inputs[k].input.ki;
            ki.time = new WinDef.DWORD(0);
            ki.dwExtraInfo = new BaseTSD.ULONG_PTR(0);
            int up = k % 2 == 1 ? KEYEVENTF_KEYUP : 0;
            if (c == '\n') {
                ki.wVk = new WinDef.WORD(VK_RETURN);
                ki.wScan = new WinDef.WORD(0);
                ki.dwFlags = new WinDef.DWORD(up);
            } else {
                ki.wVk = new WinDef.WORD(0);
                ki.wScan = new WinDef.WORD(c);
                ki.dwFlags = new WinDef.DWORD(KEYEVENTF_UNICODE | up);
            }
        }
        WinDef.DWORD sent = User32.INSTANCE.SendInput(new WinDef.DWORD(inputs.length), inputs, inputs[0].size());
        if (sent.intValue() != inputs.length) {
            throw new IllegalStateException("SendInput was blocked (another program has priority, or UIPI)");
        }
    }
}
