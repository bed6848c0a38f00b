package dev.dictum.app.insert;

import dev.dictum.app.os.Keystrokes;
import java.awt.AWTException;
import java.awt.Robot;
import java.awt.Toolkit;
import java.awt.event.KeyEvent;

/**
 * Keystrokes through the toolkit's {@link Robot} (SendInput on Windows, XTest on AWT's connection on
 * X11): the way where the platform has none of Dictum's own ({@code OsIntegrations.keystrokes}).
 */
public final class RobotKeys implements Keystrokes {
    /**
     * Between the events of a chord. On Windows an application may ask GetAsyncKeyState for Ctrl while
     * handling the V, so each event waits a moment; XTest events reach the server in order with their
     * modifier state and need none.
     */
    private static final int GAP_MILLIS = System.getProperty("os.name", "").startsWith("Windows") ? 4 : 0;
    private final Robot robot;

    public RobotKeys() throws AWTException {
        this.robot = new Robot();
        robot.setAutoDelay(0);
    }

    /**
     * Presses the keys in order and releases them in reverse, then flushes the display connection. No
     * {@code Robot.waitForIdle()}: it waits for AWT's own event queue to drain, which says nothing about
     * the target window, and without a window manager it stalled 1.5–10 s (issue 13, issue 11 item 7).
     */
    @Override
    public void chord(Key... keys) {
        for (Key k : keys) {
            robot.keyPress(code(k));
            robot.delay(GAP_MILLIS);
        }
        for (int i = keys.length - 1; i >= 0; i--) {
            robot.keyRelease(code(keys[i]));
            robot.delay(GAP_MILLIS);
        }
        Toolkit.getDefaultToolkit().sync();
    }

    private static int code(Key k) {
        return switch (k) {
            case CONTROL -> KeyEvent.VK_CONTROL;
            case SHIFT -> KeyEvent.VK_SHIFT;
            case INSERT -> KeyEvent.VK_INSERT;
            case V -> KeyEvent.VK_V;
            case ENTER -> KeyEvent.VK_ENTER;
        };
    }
}
