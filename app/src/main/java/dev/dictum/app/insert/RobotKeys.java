package dev.dictum.app.insert;

import dev.dictum.app.settings.PasteKeystroke;
import java.awt.AWTException;
import java.awt.Robot;
import java.awt.Toolkit;
import java.awt.event.KeyEvent;

/** Keystrokes through {@link Robot} (XTest on X11, SendInput on Windows): enough for shortcuts and Enter. */
public final class RobotKeys implements KeySender {
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
     * Presses the keys in order and releases them in reverse, with a few ms between, as a person would,
     * then flushes the display connection. No {@code Robot.waitForIdle()}: it waits for AWT's own event
     * queue to drain, which says nothing about the target window, and without a window manager it
     * stalled 1.5–10 s (issue 13, issue 11 item 7).
     */
    private void chord(int... keys) {
        for (int k : keys) {
            robot.keyPress(k);
            robot.delay(4);
        }
        for (int i = keys.length - 1; i >= 0; i--) {
            robot.keyRelease(keys[i]);
            robot.delay(4);
        }
        Toolkit.getDefaultToolkit().sync();
    }
}
