package dev.dictum.whisper.decode;

import java.util.Map;

/**
 * The outcome of one decoding pass over a 30-second window (OpenAI's {@code DecodingResult}).
 *
 * @param language              the language code used (detected or given; "en" for English-only models)
 * @param languageProbabilities per code, when the language was detected in this pass, else null
 * @param tokens                sampled tokens: text and timestamps, without the initial tokens and eot
 * @param tokenProbabilities    probability of each of {@code tokens} under the filtered distribution
 * @param text                  decoded text, stripped as OpenAI's {@code tokenizer.decode(t).strip()}
 * @param sumLogprob            sum of the log probabilities of the tokens and the final eot
 * @param avgLogprob            {@code sumLogprob / (tokens.length + 1)} as OpenAI computes it
 * @param noSpeechProb          softmax over the whole vocabulary at the sot position, read at nospeech
 * @param temperature           the temperature of this pass
 * @param compressionRatio      UTF-8 bytes of {@code text} over its zlib-compressed bytes
 * @param draftChecked          draft tokens checked in one batched pass (0: no draft was used)
 * @param draftAccepted         how many of them the greedy decision accepted, in order
 */
public record DecodingResult(
        String language,
        Map<String, Double> languageProbabilities,
        int[] tokens,
        float[] tokenProbabilities,
        String text,
        double sumLogprob,
        double avgLogprob,
        double noSpeechProb,
        double temperature,
        double compressionRatio,
        int draftChecked,
        int draftAccepted) {
}
