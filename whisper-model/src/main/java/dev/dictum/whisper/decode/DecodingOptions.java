package dev.dictum.whisper.decode;

/**
 * Options of one 30-second decoding pass: OpenAI's {@code DecodingOptions}, field for field (fp16 is
 * the backend's business and is left out). Immutable; change it with the {@code with...} methods.
 *
 * @param task                transcribe (X to X) or translate (X to English); ignored by English-only models
 * @param language            language code, or null to detect it from the audio
 * @param temperature         0 for greedy or beam search, above 0 for sampling
 * @param sampleLen           most tokens to sample, or null for n_text_ctx / 2
 * @param bestOf              independent samples when temperature > 0 (the best ranked wins), or null for 1
 * @param beamSize            beams when temperature == 0, or null for greedy
 * @param patience            beam search patience (arXiv:2204.05424), or null for 1.0; needs beamSize
 * @param lengthPenalty       Google NMT's alpha in [0, 1] for ranking, or null for plain length normalisation
 * @param prompt              previous-context tokens (fed after startofprev), or null/empty for none
 * @param prefix              tokens forced at the start of this window's text, or null/empty for none
 * @param suppressTokens      ids set to -inf at every step; -1 stands for the model's non-speech set
 *                            ({@link dev.dictum.whisper.format.GenerationConfig#suppressTokens()}), as
 *                            OpenAI's "-1"; whenever the list is non-empty the special tokens are
 *                            added; null or empty suppresses nothing at all (OpenAI skips the filter)
 * @param suppressBlank       forbid a space or eot as the first sampled token
 * @param withoutTimestamps   decode with notimestamps (text tokens only)
 * @param maxInitialTimestamp latest first timestamp in seconds, or null (or 0, as OpenAI tests truthiness) for none
 */
public record DecodingOptions(
        Task task,
        String language,
        double temperature,
        Integer sampleLen,
        Integer bestOf,
        Integer beamSize,
        Double patience,
        Double lengthPenalty,
        int[] prompt,
        int[] prefix,
        int[] suppressTokens,
        boolean suppressBlank,
        boolean withoutTimestamps,
        Double maxInitialTimestamp) {

    /** OpenAI's default suppress_tokens "-1": the model's non-speech symbols. */
    public static final int NON_SPEECH_SYMBOLS = -1;

    public DecodingOptions {
        if (task == null) {
            throw new IllegalArgumentException("task is required");
        }
        prompt = prompt == null ? null : prompt.clone();
        prefix = prefix == null ? null : prefix.clone();
        suppressTokens = suppressTokens == null ? null : suppressTokens.clone();
    }

    /** OpenAI's defaults: transcribe, detect the language, greedy, suppress "-1" and blanks, timestamps on, 1.0 s. */
    public static DecodingOptions defaults() {
        return new DecodingOptions(Task.TRANSCRIBE, null, 0.0, null, null, null, null, null, null, null,
                new int[] {NON_SPEECH_SYMBOLS}, true, false, 1.0);
    }

    /**
     * OpenAI's {@code DecodingTask._verify_options}: these combinations are errors rather than
     * silently ignored, so the caller (the fallback loop) must drop what does not apply.
     */
    public DecodingOptions validated() {
        if (beamSize != null && bestOf != null) {
            throw new IllegalArgumentException("beam_size and best_of can't be given together");
        }
        if (temperature == 0 && bestOf != null) {
            throw new IllegalArgumentException("best_of with greedy sampling (T=0) is not compatible");
        }
        if (patience != null && beamSize == null) {
            throw new IllegalArgumentException("patience requires beam_size to be given");
        }
        if (lengthPenalty != null && !(lengthPenalty >= 0 && lengthPenalty <= 1)) {
            throw new IllegalArgumentException("length_penalty (alpha) should be a value between 0 and 1");
        }
        if (temperature < 0 || Double.isNaN(temperature)) {
            throw new IllegalArgumentException("temperature must be >= 0, not " + temperature);
        }
        if (beamSize != null && beamSize < 1 || bestOf != null && bestOf < 1) {
            throw new IllegalArgumentException("beam_size and best_of must be at least 1");
        }
        if (sampleLen != null && sampleLen < 1) {
            throw new IllegalArgumentException("sample_len must be at least 1");
        }
        return this;
    }

    /** Sequences decoded side by side: beams, best-of samples, or 1 (OpenAI's n_group). */
    public int groupSize() {
        return beamSize != null ? beamSize : bestOf != null ? bestOf : 1;
    }

    @Override
    public int[] prompt() {
        return prompt == null ? null : prompt.clone();
    }

    @Override
    public int[] prefix() {
        return prefix == null ? null : prefix.clone();
    }

    @Override
    public int[] suppressTokens() {
        return suppressTokens == null ? null : suppressTokens.clone();
    }

    public DecodingOptions withTask(Task v) {
        return new DecodingOptions(v, language, temperature, sampleLen, bestOf, beamSize, patience, lengthPenalty,
                prompt, prefix, suppressTokens, suppressBlank, withoutTimestamps, maxInitialTimestamp);
    }

    public DecodingOptions withLanguage(String v) {
        return new DecodingOptions(task, v, temperature, sampleLen, bestOf, beamSize, patience, lengthPenalty,
                prompt, prefix, suppressTokens, suppressBlank, withoutTimestamps, maxInitialTimestamp);
    }

    public DecodingOptions withTemperature(double v) {
        return new DecodingOptions(task, language, v, sampleLen, bestOf, beamSize, patience, lengthPenalty,
                prompt, prefix, suppressTokens, suppressBlank, withoutTimestamps, maxInitialTimestamp);
    }

    public DecodingOptions withSampleLen(Integer v) {
        return new DecodingOptions(task, language, temperature, v, bestOf, beamSize, patience, lengthPenalty,
                prompt, prefix, suppressTokens, suppressBlank, withoutTimestamps, maxInitialTimestamp);
    }

    public DecodingOptions withBestOf(Integer v) {
        return new DecodingOptions(task, language, temperature, sampleLen, v, beamSize, patience, lengthPenalty,
                prompt, prefix, suppressTokens, suppressBlank, withoutTimestamps, maxInitialTimestamp);
    }

    public DecodingOptions withBeamSize(Integer v) {
        return new DecodingOptions(task, language, temperature, sampleLen, bestOf, v, patience, lengthPenalty,
                prompt, prefix, suppressTokens, suppressBlank, withoutTimestamps, maxInitialTimestamp);
    }

    public DecodingOptions withPatience(Double v) {
        return new DecodingOptions(task, language, temperature, sampleLen, bestOf, beamSize, v, lengthPenalty,
                prompt, prefix, suppressTokens, suppressBlank, withoutTimestamps, maxInitialTimestamp);
    }

    public DecodingOptions withLengthPenalty(Double v) {
        return new DecodingOptions(task, language, temperature, sampleLen, bestOf, beamSize, patience, v,
                prompt, prefix, suppressTokens, suppressBlank, withoutTimestamps, maxInitialTimestamp);
    }

    public DecodingOptions withPrompt(int[] v) {
        return new DecodingOptions(task, language, temperature, sampleLen, bestOf, beamSize, patience, lengthPenalty,
                v, prefix, suppressTokens, suppressBlank, withoutTimestamps, maxInitialTimestamp);
    }

    public DecodingOptions withPrefix(int[] v) {
        return new DecodingOptions(task, language, temperature, sampleLen, bestOf, beamSize, patience, lengthPenalty,
                prompt, v, suppressTokens, suppressBlank, withoutTimestamps, maxInitialTimestamp);
    }

    public DecodingOptions withSuppressTokens(int[] v) {
        return new DecodingOptions(task, language, temperature, sampleLen, bestOf, beamSize, patience, lengthPenalty,
                prompt, prefix, v, suppressBlank, withoutTimestamps, maxInitialTimestamp);
    }

    public DecodingOptions withSuppressBlank(boolean v) {
        return new DecodingOptions(task, language, temperature, sampleLen, bestOf, beamSize, patience, lengthPenalty,
                prompt, prefix, suppressTokens, v, withoutTimestamps, maxInitialTimestamp);
    }

    public DecodingOptions withWithoutTimestamps(boolean v) {
        return new DecodingOptions(task, language, temperature, sampleLen, bestOf, beamSize, patience, lengthPenalty,
                prompt, prefix, suppressTokens, suppressBlank, v, maxInitialTimestamp);
    }

    public DecodingOptions withMaxInitialTimestamp(Double v) {
        return new DecodingOptions(task, language, temperature, sampleLen, bestOf, beamSize, patience, lengthPenalty,
                prompt, prefix, suppressTokens, suppressBlank, withoutTimestamps, v);
    }

    /** Encodes prompt or prefix text as OpenAI does: {@code encode(" " + text.strip())}. */
    public static int[] encodeText(TextCodec codec, String text) {
        return codec.encode(" " + text.strip());
    }
}
