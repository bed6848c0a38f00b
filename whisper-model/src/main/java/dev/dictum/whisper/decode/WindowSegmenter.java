package dev.dictum.whisper.decode;

import dev.dictum.whisper.tokenizer.SpecialTokens;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Cuts one window's tokens into segments and says how far to seek (OpenAI's transcribe loop body):
 * <ul>
 * <li>two consecutive timestamps end a segment and start the next; each slice runs from its first
 *     to its last timestamp;</li>
 * <li>if the output ends with a single timestamp (text then one timestamp), the last segment runs
 *     to it and there is no speech after it: seek past the whole window;</li>
 * <li>otherwise the text after the last pair is unfinished: drop it and seek to the last closing
 *     timestamp, so the next window starts there;</li>
 * <li>without consecutive timestamps the whole window is one segment, ending at its last timestamp
 *     if there is one (other than 0.00) or at the window's end, and the seek moves a whole window.</li>
 * </ul>
 */
final class WindowSegmenter {

    /** One piece of the window: its time span and the token slice [from, to). */
    record Piece(double start, double end, int from, int to) {
    }

    /** @param seekAdvance mel frames to move the seek by */
    record Split(List<Piece> pieces, int seekAdvance) {
    }

    private WindowSegmenter() {
    }

    /**
     * @param timeOffset    seconds at the window's start
     * @param segmentSize   mel frames of content in this window
     * @param inputStride   mel frames per timestamp step (2)
     * @param timePrecision seconds per timestamp step (0.02)
     */
    static Split split(int[] tokens, SpecialTokens sp, double timeOffset, int segmentSize, int inputStride,
            double timePrecision) {
        int tsBegin = sp.timestampBegin();
        int n = tokens.length;
        boolean singleTimestampEnding = n >= 2 && tokens[n - 2] < tsBegin && tokens[n - 1] >= tsBegin;
        List<Integer> cuts = new ArrayList<>();
        for (int i = 0; i + 1 < n; i++) {
            if (tokens[i] >= tsBegin && tokens[i + 1] >= tsBegin) {
                cuts.add(i + 1);
            }
        }
        List<Piece> pieces = new ArrayList<>();
        if (!cuts.isEmpty()) {
            if (singleTimestampEnding) {
                cuts.add(n);
            }
            int lastCut = 0;
            for (int cut : cuts) {
                int startPos = tokens[lastCut] - tsBegin;
                int endPos = tokens[cut - 1] - tsBegin;
                pieces.add(new Piece(timeOffset + startPos * timePrecision, timeOffset + endPos * timePrecision,
                        lastCut, cut));
                lastCut = cut;
            }
            int advance = singleTimestampEnding ? segmentSize : (tokens[lastCut - 1] - tsBegin) * inputStride;
            return new Split(pieces, advance);
        }
        double duration = segmentSize * timePrecision / inputStride;
        int lastTimestamp = -1;
        for (int t : tokens) {
            if (t >= tsBegin) {
                lastTimestamp = t;
            }
        }
        if (lastTimestamp >= 0 && lastTimestamp != tsBegin) {
            duration = (lastTimestamp - tsBegin) * timePrecision;
        }
        pieces.add(new Piece(timeOffset, timeOffset + duration, 0, n));
        return new Split(pieces, segmentSize);
    }

    static int[] slice(int[] a, Piece p) {
        return Arrays.copyOfRange(a, p.from(), p.to());
    }

    static float[] slice(float[] a, Piece p) {
        return Arrays.copyOfRange(a, p.from(), p.to());
    }
}
