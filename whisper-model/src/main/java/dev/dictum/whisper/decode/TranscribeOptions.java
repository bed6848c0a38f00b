package dev.dictum.whisper.decode;

/**
 * Options of a whole transcription: OpenAI's {@code transcribe()} keywords (defaults as there, not
 * as its CLI, which adds best_of 5 and beam_size 5) plus a seed that makes sampling reproducible.
 * Word timestamps and hallucination_silence_threshold are not supported.
 *
 * @param decoding                  per-window options; temperature and prompt are set by the loop,
 *                                  beam_size/patience are dropped at temperature > 0 and best_of at 0
 * @param temperatures              the fallback schedule, tried in order
 * @param compressionRatioThreshold fall back when the text's compression ratio is above this (null: never)
 * @param logprobThreshold          fall back when avg_logprob is below this (null: never)
 * @param noSpeechThreshold         a window is silent when no_speech_prob is above this and avg_logprob
 *                                  is below logprobThreshold (null: never)
 * @param conditionOnPreviousText   feed the previous windows' text as the prompt
 * @param initialPrompt             text prompt for the first window, or null
 * @param carryInitialPrompt        prepend the initial prompt to every window's prompt
 * @param clipTimestamps            start,end,start,end,... in seconds; empty means the whole audio
 *                                  (OpenAI's "0"); an odd count ends at the end of the audio
 * @param seed                      seed of the sampling generator
 * @param encoderContext            encoder positions for audio that fits one window (whisper.cpp's
 *                                  audio_ctx); {@link EncoderContext#FULL} (the default) is OpenAI's
 */
public record TranscribeOptions(
        DecodingOptions decoding,
        double[] temperatures,
        Double compressionRatioThreshold,
        Double logprobThreshold,
        Double noSpeechThreshold,
        boolean conditionOnPreviousText,
        String initialPrompt,
        boolean carryInitialPrompt,
        double[] clipTimestamps,
        long seed,
        EncoderContext encoderContext) {

    public TranscribeOptions {
        temperatures = temperatures.clone();
        clipTimestamps = clipTimestamps.clone();
        if (temperatures.length == 0) {
            throw new IllegalArgumentException("at least one temperature is needed");
        }
        if (encoderContext == null) {
            encoderContext = EncoderContext.FULL;
        }
    }

    public static TranscribeOptions defaults() {
        return new TranscribeOptions(DecodingOptions.defaults(), new double[] {0.0, 0.2, 0.4, 0.6, 0.8, 1.0},
                2.4, -1.0, 0.6, true, null, false, new double[0], 0L, EncoderContext.FULL);
    }

    @Override
    public double[] temperatures() {
        return temperatures.clone();
    }

    @Override
    public double[] clipTimestamps() {
        return clipTimestamps.clone();
    }

    public TranscribeOptions withDecoding(DecodingOptions v) {
        return new TranscribeOptions(v, temperatures, compressionRatioThreshold, logprobThreshold, noSpeechThreshold,
                conditionOnPreviousText, initialPrompt, carryInitialPrompt, clipTimestamps, seed, encoderContext);
    }

    public TranscribeOptions withTemperatures(double... v) {
        return new TranscribeOptions(decoding, v, compressionRatioThreshold, logprobThreshold, noSpeechThreshold,
                conditionOnPreviousText, initialPrompt, carryInitialPrompt, clipTimestamps, seed, encoderContext);
    }

    public TranscribeOptions withCompressionRatioThreshold(Double v) {
        return new TranscribeOptions(decoding, temperatures, v, logprobThreshold, noSpeechThreshold,
                conditionOnPreviousText, initialPrompt, carryInitialPrompt, clipTimestamps, seed, encoderContext);
    }

    public TranscribeOptions withLogprobThreshold(Double v) {
        return new TranscribeOptions(decoding, temperatures, compressionRatioThreshold, v, noSpeechThreshold,
                conditionOnPreviousText, initialPrompt, carryInitialPrompt, clipTimestamps, seed, encoderContext);
    }

    public TranscribeOptions withNoSpeechThreshold(Double v) {
        return new TranscribeOptions(decoding, temperatures, compressionRatioThreshold, logprobThreshold, v,
                conditionOnPreviousText, initialPrompt, carryInitialPrompt, clipTimestamps, seed, encoderContext);
    }

    public TranscribeOptions withConditionOnPreviousText(boolean v) {
        return new TranscribeOptions(decoding, temperatures, compressionRatioThreshold, logprobThreshold,
                noSpeechThreshold, v, initialPrompt, carryInitialPrompt, clipTimestamps, seed, encoderContext);
    }

    public TranscribeOptions withInitialPrompt(String v) {
        return new TranscribeOptions(decoding, temperatures, compressionRatioThreshold, logprobThreshold,
                noSpeechThreshold, conditionOnPreviousText, v, carryInitialPrompt, clipTimestamps, seed,
                encoderContext);
    }

    public TranscribeOptions withCarryInitialPrompt(boolean v) {
        return new TranscribeOptions(decoding, temperatures, compressionRatioThreshold, logprobThreshold,
                noSpeechThreshold, conditionOnPreviousText, initialPrompt, v, clipTimestamps, seed,
                encoderContext);
    }

    public TranscribeOptions withClipTimestamps(double... v) {
        return new TranscribeOptions(decoding, temperatures, compressionRatioThreshold, logprobThreshold,
                noSpeechThreshold, conditionOnPreviousText, initialPrompt, carryInitialPrompt, v, seed,
                encoderContext);
    }

    public TranscribeOptions withSeed(long v) {
        return new TranscribeOptions(decoding, temperatures, compressionRatioThreshold, logprobThreshold,
                noSpeechThreshold, conditionOnPreviousText, initialPrompt, carryInitialPrompt, clipTimestamps, v,
                encoderContext);
    }

    public TranscribeOptions withEncoderContext(EncoderContext v) {
        return new TranscribeOptions(decoding, temperatures, compressionRatioThreshold, logprobThreshold,
                noSpeechThreshold, conditionOnPreviousText, initialPrompt, carryInitialPrompt, clipTimestamps, seed,
                v);
    }
}
