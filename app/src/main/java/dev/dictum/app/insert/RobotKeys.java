package dev.dictum.app.insert;

import dev.dictum.app.settings.PasteKeystroke;
import java.awt.AWTException;
import java.awt.Robot;
import java.awt.Toolkit;
import java.awt.event.KeyEvent;

/** Keystrokes through {@link Robot} (XTest on X11, SendInput on Windows): enough for shortcuts and Enter. */
public final class RobotKeys implements KeySender {
    /**
     * Between the events of a chord. XTest events reach the server in order with their modifier state,
     * so X11 needs none (the paste keystroke is part of release-to-text); on Windows an application may
     * ask GetAsyncKeyState for Ctrl while handling the V, so the release waits a moment.
     */
    private static final int GAP_MILLIS = System.getProperty("os.name", "").startsWith("Windows") ? 4 : 0;
    private final Robot robot;

    public RobotKeys() throws AWTException {
        this.robot = new Robot();
        robot.setAutoDelay(0);
    }

    @Override
    public void paste(PasteKeystroke keystroke) {
        switch (keystroke) {
            case CTRL_V -> chord(KeyEvent.VK_CONTROL, KeyEvent.VK_V);
            case CTRL_SHIFT_V -> chord(KeyEvent.VK_CONTROL, KeyEvent.VK_SHIFT, KeyEvent.VK_V);
            case SHIFT_INSERT -> chord(KeyEvent.VK_SHIFT, KeyEvent.VK_INSERT);
        }
    }

    @Override
    public void enter() {
        chord(KeyEvent.VK_ENTER);
    }

    /**
     * Presses the keys in order and releases them in reverse, with a few ms between on Windows (see {@link #GAP_MILLIS}),
     * then flushes the display connection. No {@code Robot.waitForIdle()}: it waits for AWT's own event
     * queue to drain, which says nothing about the target window, and without a window manager it
     * stalled 1.5–10 s (issue 13, issue 11 item 7).
     */
    private void chord(int... keys) {
        for (int k : keys) {
            robot.keyPress(k);
            robot.delay(GAP_MILLIS);
        }
        for (int i = keys.length - 1; i >= 0; i--) {
            robot.keyRelease(keys[i]);
            robot.delay(GAP_MILLIS);
        }
        Toolkit.getDefaultToolkit().sync();
    }
}
