package dev.dictum.app.cli;

import dev.dictum.whisper.decode.ProgressListener;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A progress bar on stderr for audio longer than one window, only when stderr is a terminal
 * (never in pipes, files or CI logs). Redraws in place with a carriage return.
 */
final class TerminalProgress implements ProgressListener {
    private static final int WIDTH = 30;
    private final PrintWriter err;
    private final String label;
    private final boolean active;
    private int lastPercent = -1;

    private TerminalProgress(PrintWriter err, String label, boolean active) {
        this.err = err;
        this.label = label;
        this.active = active;
    }

    static TerminalProgress forAudio(PrintWriter err, Path file, long expectedSamples) {
        var console = System.console();
        boolean terminal = console != null && console.isTerminal();
        boolean long_ = expectedSamples < 0 || expectedSamples > 30L * 16000;
        return new TerminalProgress(err, file.getFileName().toString(), terminal && long_);
    }

    @Override
    public void onProgress(int framesDone, int totalFrames) {
        if (!active || totalFrames <= 0) {
            return;
        }
        int percent = (int) Math.min(100, 100L * framesDone / totalFrames);
        if (percent == lastPercent) {
            return;
        }
        lastPercent = percent;
        int filled = percent * WIDTH / 100;
        err.printf(Locale.ROOT, "\r%s [%s%s] %3d%%  %.0f / %.0f s", label, "#".repeat(filled), " ".repeat(WIDTH - filled),
                percent, framesDone / 100.0, totalFrames / 100.0);
        err.flush();
    }

    void done() {
        if (active && lastPercent >= 0) {
            err.print("\r" + " ".repeat(label.length() + WIDTH + 30) + "\r");
            err.flush();
        }
    }
}
