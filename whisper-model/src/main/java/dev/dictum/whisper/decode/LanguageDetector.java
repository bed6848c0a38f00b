package dev.dictum.whisper.decode;

import dev.dictum.whisper.model.DecoderState;
import dev.dictum.whisper.model.EncodedAudio;
import dev.dictum.whisper.tokenizer.SpecialTokens;
import dev.dictum.whisper.tokenizer.Vocabulary;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * OpenAI's {@code detect_language}: a separate decoder pass over {@code [sot]} alone (outside the
 * decoding loop so that it does not disturb the kv cache), then the logits at position 0 with
 * every non-language token masked: argmax for the language, softmax for the probabilities. No
 * suppression filter applies here.
 */
public final class LanguageDetector {
    private LanguageDetector() {
    }

    /** Resets {@code state} to one sequence over {@code audio}; the caller resets it again to decode. */
    public static LanguageDetection detect(DecoderState state, EncodedAudio audio, Vocabulary vocabulary) {
        SpecialTokens sp = vocabulary.specials();
        if (!sp.isMultilingual()) {
            throw new IllegalArgumentException("This model doesn't have language tokens so it can't perform lang id");
        }
        float[][] logits = new float[1][sp.vocabSize()];
        state.reset(audio, 1);
        state.feed(new int[][] {{sp.sot()}}, logits);
        return fromLogits(logits[0], sp, vocabulary.languageCodes());
    }

    /** The decision from the logits at the sot position. */
    static LanguageDetection fromLogits(float[] logits, SpecialTokens sp, List<String> codes) {
        int first = sp.firstLanguage();
        int end = first + sp.languageCount();
        double lse = LogitMath.logSumExp(logits, first, end);
        int best = first;
        for (int t = first + 1; t < end; t++) {
            if (logits[t] > logits[best]) {
                best = t;
            }
        }
        Map<String, Double> probabilities = new LinkedHashMap<>();
        for (int t = first; t < end; t++) {
            probabilities.put(codes.get(t - first), Math.exp(logits[t] - lse));
        }
        return new LanguageDetection(codes.get(best - first), best, Collections.unmodifiableMap(probabilities));
    }
}
