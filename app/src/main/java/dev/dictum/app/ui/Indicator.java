package dev.dictum.app.ui;

import dev.dictum.app.tray.TrayIcons;
import dev.dictum.audio.capture.Levels;
import java.awt.AlphaComposite;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Dimension;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics;
import java.awt.Graphics2D;
import java.awt.GraphicsEnvironment;
import java.awt.Rectangle;
import java.awt.RenderingHints;
import java.awt.Window;
import java.awt.geom.Arc2D;
import java.awt.geom.Ellipse2D;
import java.awt.geom.RoundRectangle2D;
import javax.swing.JComponent;
import javax.swing.JWindow;
import javax.swing.SwingUtilities;
import javax.swing.Timer;

/**
 * The recording indicator: a small dark pill at the bottom of the screen, always on top and never
 * focusable (so the paste still goes to the user's window), showing recording with the elapsed
 * time, the input level and the live partial text (or the hint how to stop while none has come),
 * or transcribing; it also shows short notices ("No speech heard") for a few seconds. While
 * recording it warns when the speech has run past 25 s without a pause
 * ({@code DictationController.longSpeech}). On a first run it teaches the hotkey. Every method may be called from
 * any thread.
 */
public final class Indicator {
    private static final Color BACKGROUND = new Color(0x202124);
    private static final Color TEXT = new Color(0xF1F3F4);
    private static final Color SUBTEXT = new Color(0xBDC1C6);
    private static final Color METER_OFF = new Color(0x3C4043);
    private static final Color METER_ON = new Color(0x34A853);
    private static final Color METER_HOT = new Color(0xFBBC04);
    private static final int BARS = 14;
    /** While recording the pill keeps one width, so that live text does not make it jump. */
    private static final int RECORDING_WIDTH = 520;
    private static final int NOTICE_MILLIS = 3500;
    private static final int TEACH_MILLIS = 9000;
    /**
     * How long the recording pill stays, still, after the release before it says "Transcribing…". A text
     * made at the pause is in the window well before (10-20 ms), and the pill's reshaping, raising and
     * repainting are X server and CPU work that the paste's round trips waited behind: session 15, paste
     * on Xvfb, release-to-text median 18.5 ms with the pill changing at the release, 11 ms without a pill.
     * A pass that runs longer gets its "Transcribing…" after this, under the threshold where a wait shows.
     */
    static final int TRANSCRIBING_AFTER_MILLIS = 120;

    private enum Mode { HIDDEN, RECORDING, TRANSCRIBING, NOTICE }

    private final JWindow window = new JWindow();
    private final Face face = new Face();
    private final Timer animation = new Timer(33, e -> face.repaint());
    private final Timer noticeTimeout = new Timer(NOTICE_MILLIS, e -> hideNotice());
    private final Timer transcribingLater = new Timer(TRANSCRIBING_AFTER_MILLIS, e -> showPendingTranscribing());
    private String transcribingModel; // EDT only: the "Transcribing…" to show when transcribingLater fires; null: none
    private volatile boolean enabled = true;
    private volatile float level = Levels.FLOOR_DB;
    private volatile String partial = "";
    private volatile boolean longSpeech;
    private volatile long recordingSince = System.nanoTime();
    private Mode mode = Mode.HIDDEN; // EDT only
    private Mode underNotice = Mode.HIDDEN; // EDT only
    private String underTitle = ""; // EDT only: what the notice covers
    private String underSubtitle = ""; // EDT only
    private String title = "";
    private String subtitle = "";
    private boolean warning;
    private long since;

    public Indicator() {
        SwingUtilities.invokeLater(() -> {
            window.setName("dictum-indicator"); // names the X11 window too (tests find it by name)
            window.setType(Window.Type.POPUP);
            window.setFocusableWindowState(false);
            window.setAlwaysOnTop(true);
            window.setContentPane(face);
            noticeTimeout.setRepeats(false);
            transcribingLater.setRepeats(false);
        });
    }

    /** Turns the indicator off or on (the setting); notices still show when it is off. */
    public void setEnabled(boolean on) {
        enabled = on;
        if (!on) {
            SwingUtilities.invokeLater(() -> {
                if (mode == Mode.RECORDING || mode == Mode.TRANSCRIBING) {
                    show(Mode.HIDDEN, "", "", false);
                }
            });
        }
    }

    /**
     * The input level of each chunk (about every 20 ms, on the capture thread), and whether the speech
     * has run so long without a pause that the dictation will be cut mid-sentence.
     */
    public void level(float dbfs, boolean longSpeech) {
        level = dbfs;
        this.longSpeech = longSpeech;
    }

    /** A recording started; {@code hint} says how to stop it until live text arrives. */
    public void recording(String hint) {
        partial = "";
        recordingSince = System.nanoTime();
        longSpeech = false;
        if (enabled) {
            SwingUtilities.invokeLater(() -> {
                cancelTranscribing();
                show(Mode.RECORDING, "Recording", hint, false);
            });
        }
    }

    /** The live, provisional text of the recording in progress (empty: none yet). */
    public void partial(String text) {
        partial = text == null ? "" : text.strip();
    }

    /** Teaches the hotkey on a first run: shown longer than a notice. */
    public void teach(String title, String detail) {
        SwingUtilities.invokeLater(() -> {
            if (mode != Mode.NOTICE) {
                underNotice = mode;
                underTitle = this.title;
                underSubtitle = subtitle;
            }
            show(Mode.NOTICE, title, detail, false);
            noticeTimeout.setInitialDelay(TEACH_MILLIS);
            noticeTimeout.restart();
            noticeTimeout.setInitialDelay(NOTICE_MILLIS);
        });
    }

    /**
     * A transcription runs. Right after a recording the pill only stops moving, and says so after
     * {@link #TRANSCRIBING_AFTER_MILLIS} if the text has not come by then (see there why).
     */
    public void transcribing(String model) {
        if (enabled) {
            SwingUtilities.invokeLater(() -> {
                if (mode == Mode.RECORDING && transcribingModel == null) {
                    animation.stop();
                    transcribingModel = model;
                    transcribingLater.restart();
                } else if (transcribingModel == null) {
                    showTranscribing(model);
                }
            });
        }
    }

    /** The delayed "Transcribing…" of {@link #transcribing}, unless it was cancelled after the timer's event was queued. */
    private void showPendingTranscribing() {
        String model = transcribingModel;
        transcribingModel = null;
        if (model != null) {
            showTranscribing(model);
        }
    }

    private void showTranscribing(String model) {
        if (!enabled) {
            return; // turned off meanwhile
        }
        if (mode == Mode.NOTICE) {
            underNotice = Mode.TRANSCRIBING; // a notice (no speech, an error) is worth its seconds
            underTitle = "Transcribing…";
            underSubtitle = model;
        } else {
            show(Mode.TRANSCRIBING, "Transcribing…", model, false);
        }
    }

    private void cancelTranscribing() {
        transcribingLater.stop();
        transcribingModel = null;
    }

    public void idle() {
        SwingUtilities.invokeLater(() -> {
            cancelTranscribing();
            if (mode == Mode.NOTICE) {
                underNotice = Mode.HIDDEN; // the notice stays its time, then the pill goes
            } else {
                show(Mode.HIDDEN, "", "", false);
            }
        });
    }

    /** Shows a notice for a few seconds, then returns to what was shown before. */
    public void notice(String text, boolean isWarning) {
        SwingUtilities.invokeLater(() -> {
            if (mode != Mode.NOTICE) {
                underNotice = mode;
                underTitle = title;
                underSubtitle = subtitle;
            }
            String[] parts = split(text);
            show(Mode.NOTICE, parts[0], parts[1], isWarning);
            noticeTimeout.restart();
        });
    }

    private void hideNotice() {
        if (mode == Mode.NOTICE) {
            show(underNotice, underTitle, underSubtitle, false);
        }
    }

    /** "Title: detail" or "Title (detail)" → two lines; a short text stays one line. */
    private static String[] split(String text) {
        int cut = text.indexOf(": ");
        if (cut > 0 && cut < 40) {
            return new String[] {text.substring(0, cut), text.substring(cut + 2)};
        }
        return new String[] {text, ""};
    }

    /** Told each title the pill shows ("" when it hides); for tests. */
    volatile java.util.function.Consumer<String> onShow = t -> { };

    private void show(Mode m, String t, String sub, boolean warn) {
        onShow.accept(m == Mode.HIDDEN ? "" : t);
        mode = m;
        title = t;
        subtitle = sub == null ? "" : sub;
        warning = warn;
        since = System.nanoTime();
        if (m == Mode.HIDDEN) {
            animation.stop();
            window.setVisible(false);
            return;
        }
        Dimension size = face.preferred();
        Rectangle screen = GraphicsEnvironment.getLocalGraphicsEnvironment().getMaximumWindowBounds();
        window.setBounds(screen.x + (screen.width - size.width) / 2, screen.y + screen.height - size.height - 72,
                size.width, size.height);
        window.setShape(new RoundRectangle2D.Float(0, 0, size.width, size.height, size.height, size.height));
        if (!window.isVisible()) {
            window.setVisible(true);
        }
        window.toFront();
        animation.start();
        face.repaint();
    }

    private final class Face extends JComponent {
        private final Font titleFont = new Font(Font.SANS_SERIF, Font.BOLD, 15);
        private final Font subFont = new Font(Font.SANS_SERIF, Font.PLAIN, 12);

        Dimension preferred() {
            FontMetrics ft = getFontMetrics(titleFont);
            FontMetrics fs = getFontMetrics(subFont);
            int text = Math.max(ft.stringWidth(title), fs.stringWidth(subtitle));
            int meter = mode == Mode.RECORDING ? BARS * 6 + 18 : 0;
            int width = Math.min(640, Math.max(220, 64 + text + meter + 28));
            return new Dimension(mode == Mode.RECORDING ? Math.max(RECORDING_WIDTH, width) : width, 60);
        }

        @Override
        protected void paintComponent(Graphics g0) {
            Graphics2D g = (Graphics2D) g0.create();
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            int w = getWidth();
            int h = getHeight();
            g.setColor(BACKGROUND);
            g.fillRect(0, 0, w, h);
            double t = (System.nanoTime() - since) / 1e9;
            drawGlyph(g, t);
            int x = 60;
            int meterWidth = mode == Mode.RECORDING ? BARS * 6 + 18 : 0;
            int textWidth = w - x - meterWidth - 20;
            g.setColor(TEXT);
            g.setFont(titleFont);
            String top = title;
            String bottom = subtitle;
            Color bottomColor = SUBTEXT;
            if (mode == Mode.RECORDING) {
                top = title + "  " + elapsed((System.nanoTime() - recordingSince) / 1e9);
                if (longSpeech) {
                    bottom = "Over 25 s without a pause: pause briefly";
                    bottomColor = METER_HOT;
                } else if (!partial.isEmpty()) {
                    bottom = partial;
                    bottomColor = TEXT;
                }
            }
            boolean two = !bottom.isEmpty();
            g.drawString(clip(g, top, textWidth), x, two ? 26 : 36);
            if (two) {
                g.setColor(bottomColor);
                g.setFont(subFont);
                // Live text grows at its end: show its end, cut at the start.
                g.drawString(bottomColor == TEXT ? clipStart(g, bottom, textWidth) : clip(g, bottom, textWidth), x, 44);
            }
            if (mode == Mode.RECORDING) {
                drawMeter(g, w - meterWidth - 6, h);
            }
            g.dispose();
        }

        private void drawGlyph(Graphics2D g, double t) {
            switch (mode) {
                case RECORDING -> {
                    float pulse = (float) (0.55 + 0.45 * Math.abs(Math.sin(t * Math.PI)));
                    g.setColor(TrayIcons.Look.RECORDING.color());
                    g.setComposite(AlphaComposite.getInstance(AlphaComposite.SRC_OVER, pulse * 0.35f));
                    g.fill(new Ellipse2D.Float(14, 12, 36, 36));
                    g.setComposite(AlphaComposite.SrcOver);
                    g.fill(new Ellipse2D.Float(22, 20, 20, 20));
                }
                case TRANSCRIBING -> {
                    g.setStroke(new BasicStroke(4f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
                    g.setColor(METER_OFF);
                    g.draw(new Ellipse2D.Float(18, 16, 28, 28));
                    g.setColor(TrayIcons.Look.TRANSCRIBING.color().brighter());
                    g.draw(new Arc2D.Double(18, 16, 28, 28, -t * 360, 100, Arc2D.OPEN));
                }
                default -> {
                    g.setColor(warning ? TrayIcons.Look.ERROR.color() : TrayIcons.Look.IDLE.color().brighter());
                    g.fill(new Ellipse2D.Float(18, 16, 28, 28));
                    g.setColor(warning ? new Color(0x3E2723) : Color.WHITE);
                    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
                    String mark = warning ? "!" : "i";
                    FontMetrics fm = g.getFontMetrics();
                    g.drawString(mark, 32 - fm.stringWidth(mark) / 2, 37);
                }
            }
        }

        private void drawMeter(Graphics2D g, int x0, int h) {
            float lvl = Levels.meter(level);
            int lit = Math.round(lvl * BARS);
            for (int i = 0; i < BARS; i++) {
                int bh = 8 + (int) (20 * Math.sin(Math.PI * (i + 0.5) / BARS) * 0.6 + 6);
                int y = (h - bh) / 2;
                g.setColor(i < lit ? (i >= BARS - 3 ? METER_HOT : METER_ON) : METER_OFF);
                g.fill(new RoundRectangle2D.Float(x0 + i * 6, y, 4, bh, 4, 4));
            }
        }

        private static String elapsed(double seconds) {
            int s = (int) seconds;
            return s / 60 + ":" + String.format(java.util.Locale.ROOT, "%02d", s % 60);
        }

        private String clipStart(Graphics2D g, String s, int width) {
            FontMetrics fm = g.getFontMetrics();
            if (fm.stringWidth(s) <= width) {
                return s;
            }
            String cut = s;
            while (!cut.isEmpty() && fm.stringWidth("…" + cut) > width) {
                int space = cut.indexOf(' ', 1);
                cut = space > 0 && fm.stringWidth("…" + cut.substring(space)) > width / 2
                        ? cut.substring(space) : cut.substring(1); // whole words where they fit
            }
            return "…" + cut.stripLeading();
        }

        private String clip(Graphics2D g, String s, int width) {
            FontMetrics fm = g.getFontMetrics();
            if (fm.stringWidth(s) <= width) {
                return s;
            }
            String cut = s;
            while (!cut.isEmpty() && fm.stringWidth(cut + "…") > width) {
                cut = cut.substring(0, cut.length() - 1);
            }
            return cut + "…";
        }
    }
}
