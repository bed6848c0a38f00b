package dev.dictum.whisper.session;

import dev.dictum.whisper.decode.Segment;
import dev.dictum.whisper.decode.Timings;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.decode.TranscriptionResult;
import dev.dictum.whisper.session.DictationSession.Range;
import java.util.ArrayList;
import java.util.List;

/**
 * The transcriptions of a dictation's committed pieces, in order: what the next piece is prompted
 * with, the language the later pieces use, and, at the release, the one transcription they make
 * together. Not thread-safe: the session calls it under its lock.
 */
final class PieceResults {
    private final TranscribeOptions options;
    private final List<TranscriptionResult> results = new ArrayList<>();

    PieceResults(TranscribeOptions options) {
        this.options = options;
    }

    void add(TranscriptionResult r) {
        results.add(r);
    }

    int size() {
        return results.size();
    }

    /** The first piece's language (used for the others), or null before it. */
    String language() {
        return results.isEmpty() ? null : results.get(0).language();
    }

    /**
     * The committed pieces' tokens since the last prompt reset, as one transcription would carry them
     * (reset after a window decoded above temperature 0.5, or always without condition_on_previous_text).
     */
    int[] context() {
        if (!options.conditionOnPreviousText()) {
            return new int[0];
        }
        List<Integer> tokens = new ArrayList<>();
        for (TranscriptionResult r : results) {
            for (Segment s : r.segments()) {
                for (int t : s.tokens()) {
                    tokens.add(t);
                }
                if (s.temperature() > 0.5) {
                    tokens.clear(); // OpenAI drops the prompt after a window decoded this hot
                }
            }
        }
        return tokens.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The committed texts followed by {@code open}'s: the live text. */
    String liveText(TranscriptionResult open) {
        StringBuilder b = new StringBuilder();
        for (TranscriptionResult r : results) {
            b.append(r.text());
        }
        return b.append(open.text()).toString().strip();
    }

    /** The pieces' results as one transcription: texts concatenated, segments moved to where each piece starts. */
    TranscriptionResult joined(List<Range> pieces) {
        StringBuilder text = new StringBuilder();
        List<Segment> segments = new ArrayList<>();
        long enc = 0;
        long dec = 0;
        int windows = 0;
        int steps = 0;
        for (int i = 0; i < results.size(); i++) {
            TranscriptionResult r = results.get(i);
            text.append(r.text());
            int offsetFrames = pieces.get(i).start() / 160;
            double offsetSeconds = pieces.get(i).start() / (double) PieceCutter.RATE;
            for (Segment s : r.segments()) {
                segments.add(new Segment(segments.size(), s.seek() + offsetFrames, s.start() + offsetSeconds,
                        s.end() + offsetSeconds, s.text(), s.tokens(), s.tokenProbabilities(), s.avgLogprob(),
                        s.compressionRatio(), s.noSpeechProb(), s.temperature()));
            }
            enc += r.timings().encodeNanos();
            dec += r.timings().decodeNanos();
            windows += r.timings().encodedWindows();
            steps += r.timings().decodeSteps();
        }
        TranscriptionResult first = results.isEmpty() ? null : results.get(0);
        String language = first == null ? options.decoding().language() : first.language();
        return new TranscriptionResult(text.toString(), List.copyOf(segments), language,
                first == null ? null : first.languageProbabilities(), new Timings(enc, windows, dec, steps));
    }
}
