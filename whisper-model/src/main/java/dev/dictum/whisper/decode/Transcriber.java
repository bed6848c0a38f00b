package dev.dictum.whisper.decode;

import dev.dictum.whisper.model.DecoderState;
import dev.dictum.whisper.model.EncodedAudio;
import dev.dictum.whisper.model.WhisperInference;
import dev.dictum.whisper.tokenizer.SpecialTokens;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Transcribes audio of any length window by window (OpenAI's {@code transcribe()} seek loop):
 * <ol>
 * <li>the language is detected once, on the first 30 s, unless given (English-only models: "en");</li>
 * <li>each window starts at {@code seek}: its content frames are decoded with temperature
 *     fallback, with the previous text as the prompt;</li>
 * <li>a window that looks silent (no_speech_prob > threshold and avg_logprob not above the logprob
 *     threshold) produces nothing and the seek moves past it;</li>
 * <li>otherwise the tokens are cut into segments at consecutive timestamps and the seek moves to
 *     the last complete segment's end (a whole window without timestamps or after a single
 *     timestamp ending);</li>
 * <li>segments that are instantaneous or blank keep their place but lose text and tokens;</li>
 * <li>the prompt is reset after a window decoded at temperature > 0.5, or always when
 *     condition_on_previous_text is off.</li>
 * </ol>
 * Not thread-safe; one transcription at a time per instance.
 */
public final class Transcriber {
    /** OpenAI's audio constants: 30-second windows of 3000 frames, hop 160 at 16 kHz. */
    static final int N_FRAMES = 3000;
    static final int HOP_LENGTH = 160;
    static final int SAMPLE_RATE = 16000;

    private final WhisperInference model;
    private final TextCodec codec;
    private final SpecialTokens sp;

    public Transcriber(WhisperInference model, TextCodec codec) {
        this.model = model;
        this.codec = codec;
        this.sp = model.vocabulary().specials();
    }

    public TranscriptionResult transcribe(MelWindowSource mel, TranscribeOptions options, ProgressListener progress) {
        return transcribe(mel, options, progress, new int[0]);
    }

    /**
     * As {@link #transcribe(MelWindowSource, TranscribeOptions, ProgressListener)}, continuing a
     * transcription whose earlier audio gave {@code previousTokens}: they follow the initial prompt in
     * the prompt history (OpenAI's {@code all_tokens}), as if this audio were the next window of one
     * {@code transcribe()} call, and are not part of the returned text. A dictation cut into pieces
     * uses it to prompt each piece with the text of the pieces before it.
     */
    public TranscriptionResult transcribe(MelWindowSource mel, TranscribeOptions options, ProgressListener progress,
            int[] previousTokens) {
        return transcribe(mel, options, progress, previousTokens, null);
    }

    /**
     * As {@link #transcribe(MelWindowSource, TranscribeOptions, ProgressListener, int[])}, with a
     * draft for the first window: the sampled tokens an earlier transcription of audio that starts the
     * same way produced for its first window ({@link TranscriptionResult#firstWindowTokens()}, e.g. the
     * live text of a dictation's open piece). The first window's greedy pass at temperature 0 checks
     * it in one batched decoder pass instead of one step per token; the result is that of decoding
     * without it (the decisions are the same). Null or empty: no draft.
     */
    public TranscriptionResult transcribe(MelWindowSource mel, TranscribeOptions options, ProgressListener progress,
            int[] previousTokens, int[] draft) {
        if (N_FRAMES % model.dims().nAudioCtx() != 0) {
            throw new IllegalArgumentException("n_audio_ctx " + model.dims().nAudioCtx() + " does not divide "
                    + N_FRAMES + " frames");
        }
        int inputStride = N_FRAMES / model.dims().nAudioCtx(); // mel frames per output token: 2
        double timePrecision = inputStride * HOP_LENGTH / (double) SAMPLE_RATE; // 0.02 s per timestamp step
        DecodingOptions base = options.decoding();
        int maxGroup = Math.max(1, Math.max(base.beamSize() == null ? 1 : base.beamSize(),
                base.bestOf() == null ? 1 : base.bestOf()));
        SplittableRandom rng = new SplittableRandom(options.seed());
        TemperatureFallback fallback = new TemperatureFallback(model, codec);
        long encodeNanos = 0;
        int encoded = 0;
        int draftChecked = 0;
        int draftAccepted = 0;
        int[] firstWindowTokens = null;

        // The encoding of window 0 made for language detection, kept for decoding that window.
        EncodedAudio firstWindow = null;
        try (DecoderState raw = model.newDecoder(maxGroup)) {
            TimedDecoderState state = new TimedDecoderState(raw);

            // Language: once, from the first 30 s (OpenAI's pad_or_trim(mel, N_FRAMES) of the padded mel).
            String language = base.language();
            Map<String, Double> languageProbabilities = null;
            if (language == null) {
                if (!sp.isMultilingual()) {
                    language = "en";
                } else {
                    float[] first = mel.window(0);
                    long t0 = System.nanoTime();
                    firstWindow = encode(first, 0, mel.totalFrames(), options.encoderContext());
                    encodeNanos += System.nanoTime() - t0;
                    encoded++;
                    LanguageDetection d = LanguageDetector.detect(state, firstWindow, model.vocabulary());
                    language = d.language();
                    languageProbabilities = d.probabilities();
                }
            }
            base = base.withLanguage(language);

            List<Integer> allTokens = new ArrayList<>();
            List<Segment> segments = new ArrayList<>();
            int promptResetSince = 0;
            int[] initialPromptTokens = new int[0];
            int remainingPromptLength = model.dims().nTextCtx() / 2 - 1;
            if (options.initialPrompt() != null) {
                initialPromptTokens = DecodingOptions.encodeText(codec, options.initialPrompt());
                for (int t : initialPromptTokens) {
                    allTokens.add(t);
                }
                remainingPromptLength -= initialPromptTokens.length;
            }
            for (int t : previousTokens) {
                allTokens.add(t);
            }
            int textFrom = allTokens.size();

            List<int[]> clips = SeekClips.of(options.clipTimestamps()).clips();
            int clipIndex = 0;
            int seek = clips.get(0)[0];
            while (clipIndex < clips.size()) {
                int clipStart = clips.get(clipIndex)[0];
                int clipEnd = clips.get(clipIndex)[1];
                if (seek < clipStart) {
                    seek = clipStart;
                }
                if (seek >= clipEnd) {
                    clipIndex++;
                    if (clipIndex < clips.size()) {
                        seek = clips.get(clipIndex)[0];
                    }
                    continue;
                }
                int total = mel.totalFrames();
                if (total != MelWindowSource.UNKNOWN && seek >= total) {
                    break; // past the end of the audio: nothing left in any clip
                }
                float[] window = mel.window(seek);
                total = mel.totalFrames();
                if (total != MelWindowSource.UNKNOWN && seek >= total) {
                    break;
                }
                int contentLeft = total == MelWindowSource.UNKNOWN ? N_FRAMES : total - seek;
                int segmentSize = Math.min(N_FRAMES, Math.min(contentLeft, clipEnd - seek));
                // Frames past the content are left as the log-mel of the zero padding that follows the
                // audio (as Hugging Face's generate and whisper.cpp feed them) rather than zeroed as
                // OpenAI's transcribe does: the oracle is computed that way, and the window-0 encoding
                // made for language detection can then be decoded as it is instead of encoding twice.
                double timeOffset = seek * HOP_LENGTH / (double) SAMPLE_RATE;

                int[] prompt = prompt(allTokens, promptResetSince, initialPromptTokens, remainingPromptLength,
                        options.carryInitialPrompt());
                DecodingResult result;
                long t0 = System.nanoTime();
                EncodedAudio reused = seek == 0 ? firstWindow : null;
                if (reused == null && firstWindow != null) {
                    firstWindow.close(); // the clip starts later: window 0 was for the language only
                }
                firstWindow = null;
                try (EncodedAudio audio = reused != null ? reused
                        : encode(window, seek, total, options.encoderContext())) {
                    if (reused == null) {
                        encodeNanos += System.nanoTime() - t0;
                        encoded++;
                    }
                    result = fallback.decode(audio, state, base.withPrompt(prompt), options, rng,
                            firstWindowTokens == null ? draft : null);
                }
                draftChecked += result.draftChecked();
                draftAccepted += result.draftAccepted();
                if (firstWindowTokens == null) {
                    firstWindowTokens = result.tokens();
                }

                int previousSeek = seek;
                if (isSilent(result, options)) {
                    seek += segmentSize; // fast-forward to the next window
                } else {
                    WindowSegmenter.Split split = WindowSegmenter.split(result.tokens(), sp, timeOffset, segmentSize,
                            inputStride, timePrecision);
                    for (WindowSegmenter.Piece piece : split.pieces()) {
                        Segment s = segment(segments.size(), previousSeek, piece, result);
                        segments.add(s);
                        for (int t : s.tokens()) {
                            allTokens.add(t);
                        }
                    }
                    seek += split.seekAdvance();
                    if (!options.conditionOnPreviousText() || result.temperature() > 0.5) {
                        // do not feed the prompt tokens if a high temperature was used
                        promptResetSince = allTokens.size();
                    }
                }
                mel.discardBefore(seek);
                int after = mel.totalFrames();
                progress.onProgress(after == MelWindowSource.UNKNOWN ? seek : Math.min(after, seek), after);
            }

            int[] textTokens = allTokens.subList(textFrom, allTokens.size()).stream()
                    .mapToInt(Integer::intValue).toArray();
            String text = codec.decode(textTokens);
            Timings timings = new Timings(encodeNanos, encoded, state.nanos(), state.steps(), draftChecked,
                    draftAccepted);
            return new TranscriptionResult(text, List.copyOf(segments), language, languageProbabilities, timings,
                    firstWindowTokens == null ? new int[0] : firstWindowTokens);
        } finally {
            if (firstWindow != null) {
                firstWindow.close();
            }
        }
    }

    /**
     * Encodes a window, with fewer encoder positions when the encoder context asks for it and the
     * whole audio is known to fit one window (a dictation of up to 30 s); longer or still growing
     * audio is encoded whole, as OpenAI does.
     */
    private EncodedAudio encode(float[] window, int seek, int totalFrames, EncoderContext context) {
        int full = model.dims().nAudioCtx();
        if (context.mode() == EncoderContext.Mode.FULL || totalFrames == MelWindowSource.UNKNOWN
                || totalFrames > N_FRAMES) {
            return model.encode(window);
        }
        int positions = context.positionsFor(totalFrames - seek, full);
        return positions == full ? model.encode(window) : model.encode(window, positions);
    }

    /** OpenAI's no voice activity check: skip unless avg_logprob is above the logprob threshold. */
    static boolean isSilent(DecodingResult r, TranscribeOptions o) {
        if (o.noSpeechThreshold() == null) {
            return false;
        }
        boolean skip = r.noSpeechProb() > o.noSpeechThreshold();
        if (o.logprobThreshold() != null && r.avgLogprob() > o.logprobThreshold()) {
            skip = false;
        }
        return skip;
    }

    /** OpenAI's prompt: the tokens since the last reset, or with carry_initial_prompt the initial prompt first. */
    static int[] prompt(List<Integer> allTokens, int resetSince, int[] initialPrompt, int remainingPromptLength,
            boolean carryInitialPrompt) {
        if (!carryInitialPrompt) {
            return toArray(allTokens.subList(resetSince, allTokens.size()));
        }
        int ignored = Math.max(initialPrompt.length, resetSince);
        int[] rest = PythonSlices.fromEnd(toArray(allTokens.subList(ignored, allTokens.size())),
                remainingPromptLength);
        int[] out = Arrays.copyOf(initialPrompt, initialPrompt.length + rest.length);
        System.arraycopy(rest, 0, out, initialPrompt.length, rest.length);
        return out;
    }

    /** A segment, cleared of text and tokens when it is instantaneous or blank, as OpenAI does. */
    private Segment segment(int id, int seek, WindowSegmenter.Piece piece, DecodingResult r) {
        int[] tokens = WindowSegmenter.slice(r.tokens(), piece);
        float[] probabilities = WindowSegmenter.slice(r.tokenProbabilities(), piece);
        String text = codec.decode(Arrays.stream(tokens).filter(t -> t < sp.eot()).toArray());
        if (piece.start() == piece.end() || text.strip().isEmpty()) {
            text = "";
            tokens = new int[0];
            probabilities = new float[0];
        }
        return new Segment(id, seek, piece.start(), piece.end(), text, tokens, probabilities, r.avgLogprob(),
                r.compressionRatio(), r.noSpeechProb(), r.temperature());
    }

    private static int[] toArray(List<Integer> list) {
        return list.stream().mapToInt(Integer::intValue).toArray();
    }
}
