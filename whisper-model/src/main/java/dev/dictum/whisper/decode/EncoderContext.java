package dev.dictum.whisper.decode;

/**
 * How many encoder positions a window that holds all of the audio is encoded with (whisper.cpp's
 * {@code audio_ctx}). Whisper was trained on full 30-second windows and stock models lose accuracy
 * with a shortened one, so {@link #FULL} is the default; see docs/benchmarks.md, "Encoder context".
 *
 * @param mode      full, auto (the speech length rounded up) or a fixed number of positions
 * @param positions the fixed number of positions (mode FIXED only)
 */
public record EncoderContext(Mode mode, int positions) {
    /** Encoder positions per 30-second window in every Whisper model. */
    public static final int MAX_POSITIONS = 1500;
    /** auto rounds the speech's positions plus this margin up to a multiple of {@link #ROUND}. */
    static final int AUTO_MARGIN = 64;
    static final int ROUND = 64;

    public static final EncoderContext FULL = new EncoderContext(Mode.FULL, 0);
    public static final EncoderContext AUTO = new EncoderContext(Mode.AUTO, 0);

    public enum Mode { FULL, AUTO, FIXED }

    public EncoderContext {
        if (mode == Mode.FIXED && (positions < 1 || positions > MAX_POSITIONS)) {
            throw new IllegalArgumentException("audio context must be between 1 and " + MAX_POSITIONS
                    + " positions (got " + positions + ")");
        }
    }

    /** Parses {@code full}, {@code auto} or a number of positions N (1..1500); one-line message when invalid. */
    public static EncoderContext parse(String text) {
        String s = text == null ? "" : text.strip().toLowerCase(java.util.Locale.ROOT);
        switch (s) {
            case "full":
                return FULL;
            case "auto":
                return AUTO;
            default:
                int n;
                try {
                    n = Integer.parseInt(s);
                } catch (NumberFormatException e) {
                    n = 0;
                }
                if (n < 1 || n > MAX_POSITIONS) {
                    throw new IllegalArgumentException("audio context must be full, auto or a number of encoder"
                            + " positions 1.." + MAX_POSITIONS + " (got '" + text + "')");
                }
                return new EncoderContext(Mode.FIXED, n);
        }
    }

    /**
     * The positions to encode a window with whose audio content is {@code contentFrames} mel frames
     * (two frames a position), for a model of {@code fullPositions}: full for {@link #FULL}.
     */
    public int positionsFor(int contentFrames, int fullPositions) {
        return switch (mode) {
            case FULL -> fullPositions;
            case FIXED -> Math.min(positions, fullPositions);
            case AUTO -> {
                int speech = (contentFrames + 1) / 2 + AUTO_MARGIN;
                yield Math.min(fullPositions, (speech + ROUND - 1) / ROUND * ROUND);
            }
        };
    }

    @Override
    public String toString() {
        return mode == Mode.FIXED ? Integer.toString(positions) : mode.name().toLowerCase(java.util.Locale.ROOT);
    }
}
