package dev.dictum.whisper.decode;

/**
 * Where the time went: encoder passes and decoder feed calls (one decoder step feeds every
 * sequence of the group; language detection and the initial-token feeds count as steps too, and so
 * does the one batched pass that checks a draft).
 *
 * @param draftChecked  draft tokens checked in batched passes (0: no draft was used)
 * @param draftAccepted of those, how many greedy decoding chose too (each one a decoder step saved)
 */
public record Timings(long encodeNanos, int encodedWindows, long decodeNanos, int decodeSteps, int draftChecked,
        int draftAccepted) {

    public Timings(long encodeNanos, int encodedWindows, long decodeNanos, int decodeSteps) {
        this(encodeNanos, encodedWindows, decodeNanos, decodeSteps, 0, 0);
    }

    public double encoderMillis() {
        return encodeNanos / 1e6;
    }

    public double decoderMillis() {
        return decodeNanos / 1e6;
    }

    /** Decoder milliseconds per step (per generated token), NaN before the first step. */
    public double decoderMillisPerToken() {
        return decodeSteps == 0 ? Double.NaN : decoderMillis() / decodeSteps;
    }
}
