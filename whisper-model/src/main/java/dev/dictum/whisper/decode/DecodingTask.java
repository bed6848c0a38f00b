package dev.dictum.whisper.decode;

import dev.dictum.whisper.model.DecoderState;
import dev.dictum.whisper.model.EncodedAudio;
import dev.dictum.whisper.model.WhisperInference;
import dev.dictum.whisper.tokenizer.SpecialTokens;
import dev.dictum.whisper.tokenizer.Vocabulary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * One decoding pass over one encoded 30-second window (OpenAI's {@code DecodingTask.run} for a
 * single audio):
 * <ol>
 * <li>detect the language first if none is given (multilingual models only);</li>
 * <li>feed the initial tokens up to and including sot and read the no-speech probability there
 *     ({@link DecoderState#feed} returns the logits at the last fed position only, so the prompt is
 *     fed in two parts), then feed the rest of the initial tokens;</li>
 * <li>up to sample_len times: filter the logits (blank, suppress, timestamp rules), choose the next
 *     tokens (greedy, sampling or beam search), feed them; stop when complete or when the
 *     sequence would outgrow n_text_ctx;</li>
 * <li>rank the candidates and return the best with its statistics.</li>
 * </ol>
 */
public final class DecodingTask {
    private final WhisperInference model;
    private final TextCodec codec;
    private final DecodingOptions options;
    private final SpecialTokens sp;
    private final int nCtx;
    private final int sampleLen;
    private final int[] suppressTokens;

    public DecodingTask(WhisperInference model, TextCodec codec, DecodingOptions options) {
        this.model = model;
        this.codec = codec;
        this.options = options.validated();
        this.sp = model.vocabulary().specials();
        this.nCtx = model.dims().nTextCtx();
        this.sampleLen = options.sampleLen() != null ? options.sampleLen() : nCtx / 2;
        this.suppressTokens = SuppressTokensFilter.resolve(options.suppressTokens(),
                model.generation().suppressTokens(), sp);
    }

    /**
     * Decodes {@code audio} with {@code state}, which must have room for
     * {@link DecodingOptions#groupSize()} sequences.
     *
     * @param rng the source of randomness when temperature > 0 (may be null otherwise)
     */
    public DecodingResult run(EncodedAudio audio, DecoderState state, RandomGenerator rng) {
        Vocabulary vocabulary = model.vocabulary();
        String language = options.language();
        Map<String, Double> languageProbabilities = null;
        int languageToken = -1;
        if (sp.isMultilingual()) {
            if (language == null) {
                LanguageDetection detected = LanguageDetector.detect(state, audio, vocabulary);
                language = detected.language();
                languageProbabilities = detected.probabilities();
                languageToken = detected.token();
            } else {
                languageToken = vocabulary.languageToken(language);
            }
        } else if (language == null) {
            // OpenAI's detect_language refuses English-only models; transcribe() passes "en" for them.
            language = "en";
        }

        InitialTokens initial = initialTokens(languageToken);
        int sampleBegin = initial.sampleBegin();
        int group = options.groupSize();
        int vocab = sp.vocabSize();
        float[][] logits = new float[group][vocab];

        state.reset(audio, group);
        int[] tokens = initial.raw();
        int sotEnd = initial.sotIndex() + 1;
        state.feed(repeat(tokens, 0, sotEnd, group), logits);
        double noSpeechProb = LogitMath.softmaxAt(logits[0], sp.noSpeech());
        if (sotEnd < tokens.length) {
            state.feed(repeat(tokens, sotEnd, tokens.length, group), logits);
        }

        LogitFilter[] filters = filters(sampleBegin).toArray(LogitFilter[]::new);
        SequenceBatch batch = new SequenceBatch(group, nCtx + 1, tokens);
        TokenDecoder decoder = options.beamSize() != null
                ? new BeamSearchDecoder(options.beamSize(), options.patience(), sp.eot(), sampleBegin, state)
                : new GreedyDecoder(options.temperature(), sp.eot(), sampleBegin, group, rng);
        int[][] step = new int[group][1];
        for (int i = 0; i < sampleLen; i++) {
            if (i > 0) {
                for (int r = 0; r < group; r++) {
                    step[r][0] = batch.last(r);
                }
                state.feed(step, logits);
            }
            for (int r = 0; r < group; r++) {
                for (LogitFilter f : filters) {
                    f.apply(logits[r], batch.tokens[r], batch.length());
                }
            }
            boolean completed = decoder.update(batch, logits);
            if (completed || batch.length() > nCtx) {
                break;
            }
        }

        List<Candidate> candidates = decoder.finish(batch);
        Candidate best = candidates.get(new MaximumLikelihoodRanker(options.lengthPenalty()).best(candidates));
        String text = codec.decode(textTokens(best.tokens())).strip();
        float[] probabilities = new float[best.tokenLogprobs().length];
        for (int i = 0; i < probabilities.length; i++) {
            probabilities[i] = (float) Math.exp(best.tokenLogprobs()[i]);
        }
        double avgLogprob = best.sumLogprob() / (best.tokens().length + 1);
        return new DecodingResult(language, languageProbabilities, best.tokens(), probabilities, text,
                best.sumLogprob(), avgLogprob, noSpeechProb, options.temperature(), CompressionRatio.of(text));
    }

    /** The initial tokens for a language token (ignored by English-only models). */
    public InitialTokens initialTokens(int languageToken) {
        return InitialTokens.build(sp, languageToken, options.task(), options.withoutTimestamps(), options.prompt(),
                options.prefix(), nCtx, sampleLen);
    }

    /** OpenAI's filter order: SuppressBlank, SuppressTokens, ApplyTimestampRules. */
    private List<LogitFilter> filters(int sampleBegin) {
        List<LogitFilter> filters = new ArrayList<>(3);
        if (options.suppressBlank()) {
            filters.add(new SuppressBlankFilter(model.generation().beginSuppressTokens(), sampleBegin));
        }
        // OpenAI: `if self.options.suppress_tokens:` — an empty or absent list adds no filter at all.
        int[] requested = options.suppressTokens();
        if (requested != null && requested.length > 0) {
            filters.add(new SuppressTokensFilter(suppressTokens));
        }
        if (!options.withoutTimestamps()) {
            filters.add(new TimestampRulesFilter(sp, sampleBegin, TimestampRulesFilter.maxInitialTimestampIndex(
                    options.maxInitialTimestamp(), model.dims().nAudioCtx())));
        }
        return filters;
    }

    private int[] textTokens(int[] tokens) {
        return Arrays.stream(tokens).filter(t -> t < sp.eot()).toArray();
    }

    private static int[][] repeat(int[] tokens, int from, int to, int rows) {
        int[][] out = new int[rows][];
        for (int r = 0; r < rows; r++) {
            out[r] = Arrays.copyOfRange(tokens, from, to);
        }
        return out;
    }
}
