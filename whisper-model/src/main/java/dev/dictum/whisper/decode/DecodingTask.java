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
import java.util.concurrent.Future;
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
 * <b>A draft</b> (speculative decoding with greedy acceptance): given tokens that a transcription of
 * similar audio produced (the live text of the same piece), a greedy pass at temperature 0 over one
 * sequence whose first token is the draft's feeds the draft in one batched pass that returns the
 * logits at every position. The loop then walks those positions in order exactly as it would walk its
 * own steps (the same filters over the same history, the same argmax, the same stopping rules): while
 * the chosen token is the draft's, the next position's logits are already there; at the first
 * difference the chosen token is the right one anyway, the cache is cut back to the accepted tokens
 * and decoding goes on one step at a time (after one more pass over the draft's rest, if at least
 * {@value #RESYNC_MIN} tokens of it are left). The first token is decided from the same prompt pass as
 * without a draft, so a draft wrong from its start costs nothing. The decisions are those of plain greedy decoding; the
 * logits of the draft positions come from the batched pass (see {@link DecoderState#feedAll}), which
 * may differ from single steps in the last bits: where a drafted position's top two logits (after the
 * filters) are closer than {@link #DRAFT_TIE_MARGIN}, the decision is re-made from a single step and
 * the rest is decoded step by step, so a draft never changes a decision.
 */
public final class DecodingTask {
    private final WhisperInference model;
    private final TextCodec codec;
    private final DecodingOptions options;
    private final SpecialTokens sp;
    private final int nCtx;
    private final int sampleLen;
    private final int[] suppressTokens;
    /**
     * Draft tokens that must remain after a wrong one for the rest to be checked in one more batched
     * pass (a pass over a few rows costs about one step on a GPU; fewer are decoded step by step). At
     * most one such pass per decoding.
     */
    static final int RESYNC_MIN = 3;

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
        return run(audio, state, rng, null);
    }

    /**
     * As {@link #run(EncodedAudio, DecoderState, RandomGenerator)}, checking {@code draft} (sampled
     * tokens of an earlier decoding, null or empty for none) in one pass where that is exact in the
     * decision rule: greedy at temperature 0 with one sequence. Elsewhere the draft is ignored. The
     * result is the same either way.
     */
    public DecodingResult run(EncodedAudio audio, DecoderState state, RandomGenerator rng, int[] draft) {
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
        int[] checked = usableDraft(draft, tokens.length);
        state.feed(repeat(tokens, 0, sotEnd, group), logits);
        // The no-speech probability (a softmax over the vocabulary, ~0.25 ms) is needed only for the
        // result: computed on the side thread while the decoder runs on.
        float[] atSot = logits[0].clone();
        Future<Double> noSpeech = SideThread.EXECUTOR.submit(() -> LogitMath.softmaxAt(atSot, sp.noSpeech()));
        if (sotEnd < tokens.length) {
            state.feed(repeat(tokens, sotEnd, tokens.length, group), logits);
        }

        LogitFilter[] filters = filters(sampleBegin).toArray(LogitFilter[]::new);
        SequenceBatch batch = new SequenceBatch(group, nCtx + 1, tokens);
        TokenDecoder decoder = options.beamSize() != null
                ? new BeamSearchDecoder(options.beamSize(), options.patience(), sp.eot(), sampleBegin, state)
                : new GreedyDecoder(options.temperature(), sp.eot(), sampleBegin, group, rng);
        int[][] step = new int[group][1];
        // A batched pass at step i feeds the token just chosen and the draft after it: ahead[x] decides
        // sampled token aheadBase + x, valid while the tokens chosen since are the draft's, position for
        // position. The first pass starts only once the first token agrees with the draft (a draft wrong
        // from its first token costs nothing); after a wrong token, the rest is checked in one more pass.
        float[][] ahead = null;
        int aheadBase = 0;
        int passes = 0;
        for (int i = 0; i < sampleLen; i++) {
            float[][] next = logits;
            if (ahead != null && i - aheadBase < ahead.length
                    && (i == aheadBase || batch.last(0) == checked[i - 1])
                    && !nearTie(ahead[i - aheadBase], filters, batch)) {
                next = new float[][] {ahead[i - aheadBase]}; // the draft so far was right: already computed
            } else if (ahead != null && i - aheadBase < ahead.length
                    && (i == aheadBase || batch.last(0) == checked[i - 1])) {
                // A near-tie in the batched pass's logits: re-decided from a single step, as without a
                // draft; the rest goes step by step (a near-tie is rare).
                state.truncate(tokens.length + i - 1);
                ahead = null;
                step[0][0] = batch.last(0);
                state.feed(step, logits);
            } else {
                boolean wrong = ahead != null && i - aheadBase < ahead.length;
                if (ahead != null) {
                    // Off the draft (or past it): keep the initial tokens and the i - 1 chosen ones.
                    state.truncate(tokens.length + i - 1);
                    ahead = null;
                }
                boolean first = passes == 0 && i == 1 && checked != null && batch.last(0) == checked[0];
                boolean again = passes == 1 && wrong && checked.length - i >= RESYNC_MIN;
                if (first || again) {
                    int[] fed = new int[1 + checked.length - i];
                    fed[0] = batch.last(0);
                    System.arraycopy(checked, i, fed, 1, checked.length - i);
                    ahead = new float[fed.length][vocab];
                    state.feedAll(fed, 0, ahead);
                    aheadBase = i;
                    passes++;
                    next = new float[][] {ahead[0]};
                    if (nearTie(ahead[0], filters, batch)) { // re-decided from a single step, as below
                        state.truncate(tokens.length + i - 1);
                        ahead = null;
                        next = logits;
                    }
                }
                if (next == logits && i > 0) {
                    for (int r = 0; r < group; r++) {
                        step[r][0] = batch.last(r);
                    }
                    state.feed(step, logits);
                }
            }
            for (int r = 0; r < group; r++) {
                for (LogitFilter f : filters) {
                    f.apply(next[r], batch.tokens[r], batch.length());
                }
            }
            boolean completed = decoder.update(batch, next);
            if (completed || batch.length() > nCtx) {
                break;
            }
        }

        int accepted = 0; // the draft's tokens that greedy decoding chose too, position for position
        for (int j = 0; checked != null && j < checked.length && sampleBegin + j < batch.length(); j++) {
            if (batch.tokens[0][sampleBegin + j] == checked[j]) {
                accepted++;
            }
        }
        double noSpeechProb = SideThread.get(noSpeech);
        List<Candidate> candidates = decoder.finish(batch);
        Candidate best = candidates.get(new MaximumLikelihoodRanker(options.lengthPenalty()).best(candidates));
        String text = codec.decode(textTokens(best.tokens())).strip();
        float[] probabilities = new float[best.tokenLogprobs().length];
        for (int i = 0; i < probabilities.length; i++) {
            probabilities[i] = (float) Math.exp(best.tokenLogprobs()[i]);
        }
        double avgLogprob = best.sumLogprob() / (best.tokens().length + 1);
        return new DecodingResult(language, languageProbabilities, best.tokens(), probabilities, text,
                best.sumLogprob(), avgLogprob, noSpeechProb, options.temperature(), CompressionRatio.of(text),
                checked == null ? 0 : checked.length, accepted);
    }

    /**
     * The top-two logit margin below which a decision on the batched pass's logits is re-made from a
     * single step. The batched pass computes the same function in another order and differs in the
     * last bits: DraftEquivalenceTest measures the largest difference on every sample (CPU) and
     * requires it to stay under a quarter of this bound; the GPU bundle's GpuStepGraphTest bounds the
     * relative error of the batched logits at 1e-3.
     */
    static final float DRAFT_TIE_MARGIN = 0.05f;

    /** Whether the top two of {@code logits}, after the filters, are closer than {@link #DRAFT_TIE_MARGIN}. */
    private static boolean nearTie(float[] logits, LogitFilter[] filters, SequenceBatch batch) {
        float[] f = logits.clone();
        for (LogitFilter filter : filters) {
            filter.apply(f, batch.tokens[0], batch.length());
        }
        float top = Float.NEGATIVE_INFINITY;
        float second = Float.NEGATIVE_INFINITY;
        for (float v : f) {
            if (v > top) {
                second = top;
                top = v;
            } else if (v > second) {
                second = v;
            }
        }
        return top - second < DRAFT_TIE_MARGIN;
    }

    /**
     * The part of {@code draft} worth checking after {@code initialLength} initial tokens, or null:
     * only for greedy decoding at temperature 0 of one sequence (where the decision is an argmax the
     * draft can be checked against), up to and including its first eot, and no longer than the loop
     * could sample (sample_len) or the text context could hold. A token outside the vocabulary makes
     * the draft unusable.
     */
    private int[] usableDraft(int[] draft, int initialLength) {
        if (draft == null || draft.length == 0 || options.temperature() != 0 || options.beamSize() != null
                || options.groupSize() != 1) {
            return null;
        }
        int end = 0;
        while (end < draft.length && (end == 0 || draft[end - 1] != sp.eot())) {
            if (draft[end] < 0 || draft[end] >= sp.vocabSize()) {
                return null;
            }
            end++;
        }
        // Position i's logits decide sampled token i: the draft's last token is followed by one more decision.
        end = Math.min(end, Math.min(sampleLen - 1, nCtx - initialLength));
        return end > 0 ? Arrays.copyOf(draft, end) : null;
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
