package dev.dictum.app.ui;

import java.awt.Color;
import java.awt.GraphicsEnvironment;
import java.awt.Rectangle;
import java.awt.Robot;
import java.awt.Window;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import javax.swing.JWindow;
import javax.swing.SwingUtilities;

/**
 * The recording indicator in the states the "Using Dictum every day" page shows: recording with
 * elapsed time and live text, the long-speech warning, the first-run hint and the lost-microphone
 * notice. Driven directly (the live text as the release-to-text session sends it through
 * {@code Listener.partial}); each PNG is the indicator with a margin of the desktop around it.
 * Run by scripts/screenshots-desktop.sh under Xvfb; not a unit test.
 */
public final class IndicatorScreenshots {
    private static final int MARGIN = 28;

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "docs/screenshots");
        Files.createDirectories(out);
        Indicator ind = new Indicator();
        Robot robot = new Robot();
        // A calm desktop behind the pill (a bare Xvfb root is black, and resets when a client leaves).
        SwingUtilities.invokeAndWait(() -> {
            JWindow desktop = new JWindow();
            desktop.getContentPane().setBackground(new Color(0x3d4b5c));
            desktop.setBounds(GraphicsEnvironment.getLocalGraphicsEnvironment().getMaximumWindowBounds());
            desktop.setVisible(true);
        });

        ind.recording("Release to insert · Escape cancels");
        speak(ind, 7_400);
        shot(robot, out.resolve("indicator-recording.png"));
        ind.partial("Note to self: send the final version of the report to Sophie");
        speak(ind, 1_000);
        shot(robot, out.resolve("indicator-live-text.png"));

        ind.recording("Release to insert · Escape cancels");
        ind.partial("and the second point is that the schedule for the spring release depends on");
        speak(ind, 25_600); // one stretch of speech with no pause
        shot(robot, out.resolve("indicator-long-speech.png"));

        ind.idle();
        ind.teach("Hold Ctrl+Alt+Space and speak", "Release it, and the text appears where your cursor is");
        Thread.sleep(600);
        shot(robot, out.resolve("indicator-first-run.png"));

        ind.notice("Microphone \"USB Headset\" lost: nothing inserted; the recording is kept in History", true);
        Thread.sleep(600);
        shot(robot, out.resolve("notice-microphone-lost.png"));
        System.exit(0);
    }

    /** Feeds speech-like levels every 20 ms for {@code millis}, as the microphone does. */
    private static void speak(Indicator ind, long millis) throws InterruptedException {
        long until = System.currentTimeMillis() + millis;
        for (int i = 0; System.currentTimeMillis() < until; i++) {
            ind.level((float) (-22 + 8 * Math.sin(i / 3.0)), false);
            Thread.sleep(20);
        }
    }

    private static void shot(Robot robot, Path file) throws Exception {
        Thread.sleep(300);
        Rectangle[] r = new Rectangle[1];
        SwingUtilities.invokeAndWait(() -> {
            for (Window w : Window.getWindows()) {
                if ("dictum-indicator".equals(w.getName()) && w.isShowing()) {
                    r[0] = w.getBounds();
                }
            }
        });
        if (r[0] == null) {
            throw new IllegalStateException("the indicator is not showing for " + file.getFileName());
        }
        Rectangle area = new Rectangle(r[0].x - MARGIN, r[0].y - MARGIN, r[0].width + 2 * MARGIN,
                r[0].height + 2 * MARGIN);
        BufferedImage img = robot.createScreenCapture(area);
        ImageIO.write(img, "png", file.toFile());
        System.out.println("wrote " + file);
    }
}
