package dev.dictum.whisper.decode;

import dev.dictum.whisper.tokenizer.SpecialTokens;

/**
 * OpenAI's {@code ApplyTimestampRules}, rule for rule, for one sequence:
 * <ol>
 * <li>notimestamps is never sampled (timestamp mode is chosen by the initial tokens);</li>
 * <li>timestamps come in pairs, except directly before eot: after a timestamp that closes a
 *     pair (or opens the text) text must follow; after a lone timestamp, a timestamp or eot;</li>
 * <li>timestamps never decrease; after text they must strictly increase (so every segment has a
 *     non-zero length and decoding cannot loop), after a closing timestamp the next segment may
 *     start at the same time;</li>
 * <li>the first sampled token is a timestamp no later than {@code maxInitialTimestampIndex};</li>
 * <li>if the total probability of all timestamps beats every single text token, a timestamp is
 *     forced. Both sides are log-probabilities of the same softmax, so the normaliser cancels:
 *     {@code logsumexp(logits[ts..]) > max(logits[..ts))}.</li>
 * </ol>
 */
public final class TimestampRulesFilter implements LogitFilter {
    private final SpecialTokens sp;
    private final int sampleBegin;
    /** Null for no limit. */
    private final Integer maxInitialTimestampIndex;

    public TimestampRulesFilter(SpecialTokens sp, int sampleBegin, Integer maxInitialTimestampIndex) {
        this.sp = sp;
        this.sampleBegin = sampleBegin;
        this.maxInitialTimestampIndex = maxInitialTimestampIndex;
    }

    /**
     * OpenAI: {@code round(max_initial_timestamp / precision)} with precision = 30 s / n_audio_ctx,
     * only when max_initial_timestamp is truthy (so 0 means no limit). Python rounds half to even.
     */
    public static Integer maxInitialTimestampIndex(Double maxInitialTimestamp, int nAudioCtx) {
        if (maxInitialTimestamp == null || maxInitialTimestamp == 0) {
            return null;
        }
        double precision = 30.0 / nAudioCtx;
        return (int) Math.rint(maxInitialTimestamp / precision);
    }

    @Override
    public void apply(float[] logits, int[] tokens, int length) {
        int tsBegin = sp.timestampBegin();
        int vocab = logits.length;
        logits[sp.noTimestamps()] = LogitMath.MASKED;

        int sampled = length - sampleBegin;
        boolean lastWasTimestamp = sampled >= 1 && tokens[length - 1] >= tsBegin;
        boolean penultimateWasTimestamp = sampled < 2 || tokens[length - 2] >= tsBegin;
        if (lastWasTimestamp) {
            if (penultimateWasTimestamp) {
                LogitMath.mask(logits, tsBegin, vocab);
            } else {
                LogitMath.mask(logits, 0, sp.eot());
            }
        }

        int lastTimestamp = -1;
        for (int i = length - 1; i >= sampleBegin; i--) {
            if (tokens[i] >= tsBegin) {
                lastTimestamp = tokens[i];
                break;
            }
        }
        if (lastTimestamp >= 0) {
            int forbiddenEnd = lastWasTimestamp && !penultimateWasTimestamp ? lastTimestamp : lastTimestamp + 1;
            LogitMath.mask(logits, tsBegin, forbiddenEnd);
        }

        if (length == sampleBegin) {
            LogitMath.mask(logits, 0, tsBegin);
            if (maxInitialTimestampIndex != null) {
                LogitMath.mask(logits, tsBegin + maxInitialTimestampIndex + 1, vocab);
            }
        }

        double timestampLogprob = LogitMath.logSumExp(logits, tsBegin, vocab);
        float maxTextLogit = LogitMath.max(logits, 0, tsBegin);
        if (timestampLogprob > maxTextLogit) {
            LogitMath.mask(logits, 0, tsBegin);
        }
    }
}
