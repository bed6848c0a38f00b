package dev.dictum.whisper.session;

import dev.dictum.whisper.decode.DecodingOptions;
import dev.dictum.whisper.decode.DecodingResult;
import dev.dictum.whisper.decode.DecodingTask;
import dev.dictum.whisper.mel.LogMel;
import dev.dictum.whisper.model.DecoderState;
import dev.dictum.whisper.model.EncodedAudio;
import dev.dictum.whisper.model.WhisperModel;
import dev.dictum.whisper.tokenizer.SpecialTokens;
import dev.dictum.whisper.decode.EncoderContext;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Times the two costs that matter: encoding a 30-second window, and one decoder step (one new
 * token with the KV cache, including the vocabulary projection); with beams, also a beam step and a
 * real beam-search transcription of the last window. The decoder is fed the prompt,
 * then the argmax text token each step (end-of-text is not allowed to stop it), so every run
 * times the same number of steps whatever the weights say.
 */
public final class EngineBenchmark {
    /** Median, min and max of per-run values. */
    public record Stats(double median, double min, double max) {
        static Stats of(double[] v) {
            double[] s = v.clone();
            Arrays.sort(s);
            int n = s.length;
            double median = n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
            return new Stats(median, s[0], s[n - 1]);
        }
    }

    /**
     * @param beamMsPerStep one beam-search step of {@code beams} sequences (null when not timed): the
     *                      cache reordered to the chosen parents, then one token fed to every sequence
     * @param beamTranscriptionMsPerToken a real beam search of {@code beams} over the last window, per
     *                      sampled token (null when not timed): {@link #beamTranscription}'s options
     */
    public record Result(Stats encoderMs, Stats decodeMsPerToken, int windows, int tokens, int positions,
            Stats beamMsPerStep, int beams, Stats beamTranscriptionMsPerToken) {
    }

    /**
     * The beam-search transcription the peers run too (issue 22 item 4: "a real beam-5 transcription of the
     * same audio, same prompt, same number of tokens in every engine"): OpenAI's decoding (logit filters,
     * beam bookkeeping, cache reorders, the prompt fed to every beam) in English, without timestamps, with
     * end-of-text suppressed so that exactly {@code tokens} tokens are sampled whatever the weights say.
     */
    static DecodingOptions beamTranscription(int beams, int tokens, int eot) {
        return DecodingOptions.defaults().withBeamSize(beams).withLanguage("en").withWithoutTimestamps(true)
                .withSampleLen(tokens).withSuppressTokens(new int[] {DecodingOptions.NON_SPEECH_SYMBOLS, eot});
    }

    /**
     * The parents a beam step keeps when two beams fork from the best one and the worst drops out:
     * a reorder that moves caches every step, as beam search does unless nothing changes.
     */
    static int[] forkingParents(int beams) {
        int[] p = new int[beams];
        for (int b = 1; b < beams; b++) {
            p[b] = b - 1;
        }
        return p;
    }

    private EngineBenchmark() {
    }

    /** Deterministic speech-like test signal: a few gliding harmonics under noise. */
    public static float[] syntheticAudio(double seconds) {
        int n = (int) Math.round(seconds * 16000);
        float[] a = new float[n];
        SplittableRandom rnd = new SplittableRandom(7);
        for (int i = 0; i < n; i++) {
            double t = i / 16000.0;
            double f0 = 140 + 40 * Math.sin(2 * Math.PI * 0.7 * t);
            double v = 0;
            for (int h = 1; h <= 6; h++) {
                v += Math.sin(2 * Math.PI * f0 * h * t) / h;
            }
            a[i] = (float) (0.2 * v * (0.6 + 0.4 * Math.sin(2 * Math.PI * 3 * t)) + 0.01 * rnd.nextGaussian());
        }
        return a;
    }

    public static Result run(WhisperEngine engine, float[] audio16k, int warmup, int runs, int tokens) {
        return run(engine, audio16k, warmup, runs, tokens, EncoderContext.FULL);
    }

    /**
     * As {@link #run(WhisperEngine, float[], int, int, int)} with the encoder context a transcription
     * would use: audio of up to 30 s is encoded with the positions it asks for, longer audio whole.
     */
    public static Result run(WhisperEngine engine, float[] audio16k, int warmup, int runs, int tokens,
            EncoderContext context) {
        return run(engine, audio16k, warmup, runs, tokens, context, 0);
    }

    /**
     * As above, and with {@code beams > 1} also a beam-search step of that many sequences per run:
     * the prompt fed to every sequence, then {@code tokens} steps of (reorder the caches to the
     * parents of {@link #forkingParents}, feed each sequence its argmax text token), ms per step.
     */
    public static Result run(WhisperEngine engine, float[] audio16k, int warmup, int runs, int tokens,
            EncoderContext context, int beams) {
        WhisperModel m = engine.model();
        LogMel mel = new LogMel(m.dims().nMels());
        int windows = Math.max(1, (int) Math.ceil(audio16k.length / 480000.0));
        float[][] mels = new float[windows][];
        for (int w = 0; w < windows; w++) {
            int from = w * 480000;
            mels[w] = mel.window(Arrays.copyOfRange(audio16k, from, Math.min(audio16k.length, from + 480000)));
        }
        int full = m.dims().nAudioCtx();
        int positions = windows == 1 ? context.positionsFor(audio16k.length / 160, full) : full;
        SpecialTokens sp = m.vocabulary().specials();
        int[] prompt = m.dims().isMultilingual()
                ? new int[] {sp.sot(), sp.firstLanguage(), sp.transcribe(), sp.noTimestamps()}
                : new int[] {sp.sot(), sp.noTimestamps()};
        int steps = Math.min(tokens, m.dims().nTextCtx() - prompt.length);
        double[] enc = new double[runs];
        double[] dec = new double[runs];
        double[] beam = new double[runs];
        double[] beamTranscription = new double[runs];
        float[][] logits = new float[1][m.dims().nVocab()];
        int[][] next = new int[1][1];
        float[][] beamLogits = beams > 1 ? new float[beams][m.dims().nVocab()] : null;
        int[][] beamNext = new int[Math.max(beams, 1)][1];
        int[][] beamPrompt = new int[Math.max(beams, 1)][];
        Arrays.fill(beamPrompt, prompt);
        int[] parents = forkingParents(Math.max(beams, 1));
        try (DecoderState state = m.newDecoder(1); DecoderState beamState = beams > 1 ? m.newDecoder(beams) : null) {
            for (int r = -warmup; r < runs; r++) { // negative runs warm up the JIT and the caches
                long encNanos = 0;
                EncodedAudio last = null;
                for (float[] window : mels) {
                    if (last != null) {
                        last.close();
                    }
                    long t0 = System.nanoTime();
                    last = m.encode(window, positions);
                    // A GPU backend only queues the encoder; the time is until it has run. (Until the
                    // shared scratch, freeing the encoder's own scratch at its end waited implicitly.)
                    m.backend().synchronize();
                    encNanos += System.nanoTime() - t0;
                }
                state.reset(last, 1);
                state.feed(new int[][] {prompt}, logits);
                long t0 = System.nanoTime();
                for (int s = 0; s < steps; s++) {
                    next[0][0] = argmaxText(logits[0], sp.eot());
                    state.feed(next, logits);
                }
                long decNanos = System.nanoTime() - t0;
                long beamNanos = 0;
                if (beamState != null) {
                    beamState.reset(last, beams);
                    beamState.feed(beamPrompt, beamLogits);
                    long b0 = System.nanoTime();
                    for (int s = 0; s < steps; s++) {
                        beamState.reorder(parents);
                        for (int b = 0; b < beams; b++) {
                            beamNext[b][0] = argmaxText(beamLogits[parents[b]], sp.eot());
                        }
                        beamState.feed(beamNext, beamLogits);
                    }
                    beamNanos = System.nanoTime() - b0;
                    long t1 = System.nanoTime();
                    DecodingResult bt = new DecodingTask(m, engine.codec(), beamTranscription(beams, steps, sp.eot()))
                            .run(last, beamState, null);
                    if (r >= 0) {
                        beamTranscription[r] = (System.nanoTime() - t1) / 1e6 / steps;
                    }
                    if (bt.tokens().length != steps) {
                        throw new IllegalStateException("the beam transcription sampled " + bt.tokens().length
                                + " tokens, not " + steps);
                    }
                }
                last.close();
                if (r >= 0) {
                    enc[r] = encNanos / 1e6 / windows;
                    dec[r] = decNanos / 1e6 / steps;
                    beam[r] = beamNanos / 1e6 / steps;
                }
            }
        }
        return new Result(Stats.of(enc), Stats.of(dec), windows, steps, positions, beams > 1 ? Stats.of(beam) : null,
                beams, beams > 1 ? Stats.of(beamTranscription) : null);
    }

    private static int argmaxText(float[] logits, int eot) {
        int best = 0;
        for (int i = 1; i < eot; i++) {
            if (logits[i] > logits[best]) {
                best = i;
            }
        }
        return best;
    }
}
