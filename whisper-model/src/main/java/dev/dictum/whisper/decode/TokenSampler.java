package dev.dictum.whisper.decode;

import java.util.random.RandomGenerator;

/**
 * Draws from {@code Categorical(logits = logits / temperature)} as OpenAI's GreedyDecoder does for
 * temperature > 0, from a caller-seeded generator so runs are reproducible. Masked (-inf) entries
 * have probability 0. Two passes over the row, no allocation.
 */
final class TokenSampler {
    private TokenSampler() {
    }

    static int sample(float[] logits, double temperature, RandomGenerator rng) {
        float max = LogitMath.max(logits, 0, logits.length);
        double total = 0;
        for (float l : logits) {
            if (l != LogitMath.MASKED) {
                total += Math.exp((l - (double) max) / temperature);
            }
        }
        double target = rng.nextDouble() * total;
        double cumulative = 0;
        int lastPossible = LogitMath.argmax(logits);
        for (int i = 0; i < logits.length; i++) {
            if (logits[i] != LogitMath.MASKED) {
                cumulative += Math.exp((logits[i] - (double) max) / temperature);
                lastPossible = i;
                if (target < cumulative) {
                    return i;
                }
            }
        }
        return lastPossible;
    }
}
