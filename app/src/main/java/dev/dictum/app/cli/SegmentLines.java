package dev.dictum.app.cli;

import dev.dictum.whisper.decode.Segment;
import dev.dictum.whisper.decode.TranscriptionResult;
import java.io.PrintWriter;
import java.util.Locale;

/** {@code [00:01.240 --> 00:03.900]  text}, one line per segment, as OpenAI's CLI prints them. */
final class SegmentLines {
    private SegmentLines() {
    }

    static void print(TranscriptionResult r, PrintWriter out) {
        for (Segment s : r.segments()) {
            out.printf(Locale.ROOT, "[%s --> %s]  %s%n", time(s.start()), time(s.end()), s.text().strip());
        }
    }

    static String time(double seconds) {
        long ms = Math.round(seconds * 1000);
        long h = ms / 3_600_000;
        long m = ms / 60_000 % 60;
        double s = ms % 60_000 / 1000.0;
        return h > 0 ? String.format(Locale.ROOT, "%d:%02d:%06.3f", h, m, s) : String.format(Locale.ROOT, "%02d:%06.3f", m, s);
    }
}
