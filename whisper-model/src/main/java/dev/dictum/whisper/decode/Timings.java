package dev.dictum.whisper.decode;

/**
 * Where the time went: encoder passes and decoder feed calls (one decoder step feeds every
 * sequence of the group; language detection and the initial-token feeds count as steps too).
 */
public record Timings(long encodeNanos, int encodedWindows, long decodeNanos, int decodeSteps) {

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
