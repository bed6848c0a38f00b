package dev.dictum.whisper.decode;

import dev.dictum.whisper.model.DecoderState;
import dev.dictum.whisper.model.EncodedAudio;
import dev.dictum.whisper.model.WhisperInference;
import java.util.random.RandomGenerator;

/**
 * OpenAI's {@code decode_with_fallback}: decode at each temperature of the schedule in turn until
 * the result is acceptable. A result needs a retry when it is too repetitive (compression ratio
 * above the threshold) or too improbable (avg_logprob below the threshold), unless it looks like
 * silence (no_speech_prob above its threshold and avg_logprob below the logprob threshold), which
 * the seek loop then skips. Beam size and patience apply at temperature 0 only, best_of above 0.
 * The window is encoded once for all attempts (OpenAI re-encodes; the result is the same).
 */
public final class TemperatureFallback {
    private final WhisperInference model;
    private final TextCodec codec;

    public TemperatureFallback(WhisperInference model, TextCodec codec) {
        this.model = model;
        this.codec = codec;
    }

    public DecodingResult decode(EncodedAudio audio, DecoderState state, DecodingOptions base,
            TranscribeOptions options, RandomGenerator rng) {
        return decode(audio, state, base, options, rng, null);
    }

    /**
     * As {@link #decode(EncodedAudio, DecoderState, DecodingOptions, TranscribeOptions, RandomGenerator)}
     * with a draft for the first attempt (see {@link DecodingTask#run(EncodedAudio, DecoderState,
     * RandomGenerator, int[])}; used only where it is greedy at temperature 0); a retry at a higher
     * temperature samples, and gets none.
     */
    public DecodingResult decode(EncodedAudio audio, DecoderState state, DecodingOptions base,
            TranscribeOptions options, RandomGenerator rng, int[] draft) {
        DecodingResult result = null;
        boolean first = true;
        for (double t : options.temperatures()) {
            DecodingOptions attempt = t > 0
                    ? base.withBeamSize(null).withPatience(null).withTemperature(t)
                    : base.withBestOf(null).withTemperature(t);
            result = new DecodingTask(model, codec, attempt).run(audio, state, rng, first ? draft : null);
            first = false;
            if (!needsFallback(result, options)) {
                break;
            }
        }
        return result;
    }

    static boolean needsFallback(DecodingResult r, TranscribeOptions o) {
        boolean fallback = false;
        if (o.compressionRatioThreshold() != null && r.compressionRatio() > o.compressionRatioThreshold()) {
            fallback = true; // too repetitive
        }
        if (o.logprobThreshold() != null && r.avgLogprob() < o.logprobThreshold()) {
            fallback = true; // average log probability is too low
        }
        if (o.noSpeechThreshold() != null && r.noSpeechProb() > o.noSpeechThreshold()
                && o.logprobThreshold() != null && r.avgLogprob() < o.logprobThreshold()) {
            fallback = false; // silence
        }
        return fallback;
    }
}
