package dev.dictum.app.tray;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Arc2D;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.RoundRectangle2D;
import java.awt.image.BufferedImage;

/**
 * The tray's icons, drawn in code so they stay crisp at any tray size and scaling: a microphone
 * on a round badge whose colour says the state (slate: ready, red: recording, blue: transcribing,
 * amber: error, grey: no model yet), with a small mark for the states a colour-blind user must
 * still tell apart (a dot while recording, dots while transcribing, "!" on error).
 */
public final class TrayIcons {
    /** What the icon shows. */
    public enum Look {
        IDLE(new Color(0x37474F)),
        RECORDING(new Color(0xE53935)),
        TRANSCRIBING(new Color(0x1E88E5)),
        ERROR(new Color(0xF9A825)),
        LOADING(new Color(0x90A4AE));

        final Color badge;

        Look(Color badge) {
            this.badge = badge;
        }

        public Color color() {
            return badge;
        }
    }

    private TrayIcons() {
    }

    public static BufferedImage draw(Look look, int size) {
        BufferedImage img = new BufferedImage(size, size, BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
        float s = size / 64f;
        g.scale(s, s);
        g.setColor(look.badge);
        g.fill(new Ellipse2D.Float(2, 2, 60, 60));
        drawMicrophone(g, Color.WHITE);
        switch (look) {
            case RECORDING -> {
                g.setColor(Color.WHITE);
                g.fill(new Ellipse2D.Float(44, 6, 14, 14));
                g.setColor(look.badge.darker());
                g.fill(new Ellipse2D.Float(47, 9, 8, 8));
            }
            case TRANSCRIBING -> {
                g.setColor(Color.WHITE);
                for (int i = 0; i < 3; i++) {
                    g.fill(new Ellipse2D.Float(40 + i * 7, 8, 5, 5));
                }
            }
            case ERROR -> {
                g.setColor(new Color(0x3E2723));
                g.fill(new RoundRectangle2D.Float(46, 5, 6, 14, 3, 3));
                g.fill(new Ellipse2D.Float(46, 21, 6, 6));
            }
            default -> { }
        }
        g.dispose();
        return img;
    }

    /** A microphone capsule on a stand, in a 64-unit box. */
    static void drawMicrophone(Graphics2D g, Color c) {
        g.setColor(c);
        g.fill(new RoundRectangle2D.Float(24, 13, 16, 26, 16, 16));
        g.setStroke(new BasicStroke(3.5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        g.draw(new Arc2D.Float(18, 20, 28, 26, 180, 180, Arc2D.OPEN));
        g.draw(new Line2D.Float(32, 46, 32, 52));
        g.draw(new Line2D.Float(25, 52, 39, 52));
    }
}
