package dev.dictum.whisper.decode;

/**
 * OpenAI's {@code SuppressBlank}: at the first sampled step only, forbid the space token and eot, so
 * that a window never decodes to nothing or to a leading blank. The ids are
 * {@code encode(" ") + [eot]}, which is the model's begin_suppress_tokens
 * ({@link dev.dictum.whisper.format.GenerationConfig#beginSuppressTokens()}).
 */
public final class SuppressBlankFilter implements LogitFilter {
    private final int[] blankTokens;
    private final int sampleBegin;

    public SuppressBlankFilter(int[] blankTokens, int sampleBegin) {
        this.blankTokens = blankTokens.clone();
        this.sampleBegin = sampleBegin;
    }

    @Override
    public void apply(float[] logits, int[] tokens, int length) {
        if (length == sampleBegin) {
            for (int t : blankTokens) {
                logits[t] = LogitMath.MASKED;
            }
        }
    }
}
