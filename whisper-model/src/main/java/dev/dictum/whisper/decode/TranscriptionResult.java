package dev.dictum.whisper.decode;

import java.util.List;
import java.util.Map;

/**
 * A whole transcription (OpenAI's transcribe() dict).
 *
 * @param text                  every segment's text tokens decoded together, as OpenAI's
 *                              {@code tokenizer.decode(all_tokens[len(initial_prompt_tokens):])};
 *                              usually starts with a space
 * @param segments              in order; skipped (silent) windows produce none
 * @param language              the language code used
 * @param languageProbabilities per code when the language was detected, else null
 * @param timings               encoder and decoder time
 * @param firstWindowTokens     the sampled tokens (text and timestamps, no eot) of the first decoded
 *                              window as decoding chose them: a draft for a later transcription of audio
 *                              that begins the same way; empty when no window was decoded
 */
public record TranscriptionResult(
        String text,
        List<Segment> segments,
        String language,
        Map<String, Double> languageProbabilities,
        Timings timings,
        int[] firstWindowTokens) {

    public TranscriptionResult {
        firstWindowTokens = firstWindowTokens.clone();
    }

    public TranscriptionResult(String text, List<Segment> segments, String language,
            Map<String, Double> languageProbabilities, Timings timings) {
        this(text, segments, language, languageProbabilities, timings, new int[0]);
    }

    @Override
    public int[] firstWindowTokens() {
        return firstWindowTokens.clone();
    }

    /** The text as the CLI prints it: without the leading (and trailing) whitespace. */
    public String strippedText() {
        return text.strip();
    }
}
