package dev.dictum.whisper.decode;

import java.util.Map;

/**
 * The detected language of a window.
 *
 * @param language      the most probable code
 * @param token         its language token
 * @param probabilities every language code of the model, in token order, with its probability (sums to 1)
 */
public record LanguageDetection(String language, int token, Map<String, Double> probabilities) {
}
