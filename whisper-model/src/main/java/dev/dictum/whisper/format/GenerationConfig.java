package dev.dictum.whisper.format;

/**
 * Decoding defaults that travel with a model: Hugging Face's generation_config.json, or, for
 * formats that have none (ggml, CTranslate2), what OpenAI's tokenizer computes.
 *
 * @param suppressTokens           set to -inf at every step (OpenAI's "-1": non-speech symbols plus
 *                                 sot, translate, transcribe, startoflm, startofprev, nospeech)
 * @param beginSuppressTokens      set to -inf at the first sampled step only (space and eot)
 * @param maxInitialTimestampIndex the first timestamp may be at most this many 0.02 s steps
 */
public record GenerationConfig(int[] suppressTokens, int[] beginSuppressTokens, int maxInitialTimestampIndex) {
    public GenerationConfig {
        suppressTokens = suppressTokens.clone();
        beginSuppressTokens = beginSuppressTokens.clone();
    }

    @Override
    public int[] suppressTokens() {
        return suppressTokens.clone();
    }

    @Override
    public int[] beginSuppressTokens() {
        return beginSuppressTokens.clone();
    }
}
