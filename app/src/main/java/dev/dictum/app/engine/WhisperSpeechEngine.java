package dev.dictum.app.engine;

import dev.dictum.app.dictation.Dictation;
import dev.dictum.app.dictation.SpeechEngine;
import dev.dictum.app.dictation.Transcript;
import dev.dictum.app.settings.TranscriptionSettings;
import dev.dictum.app.settings.TranscriptionTask;
import dev.dictum.gpu.cpu.ComputePool;
import dev.dictum.whisper.decode.DecodingOptions;
import dev.dictum.whisper.decode.Segment;
import dev.dictum.whisper.decode.Task;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.decode.TranscriptionResult;
import dev.dictum.whisper.session.DictationSession;
import dev.dictum.whisper.session.WhisperEngine;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link SpeechEngine} over the in-process Whisper engine ({@link WhisperEngine}), with the options
 * from the settings. Only {@code engine} and tests name this class; the rest of the app sees {@link SpeechEngine}.
 */
public final class WhisperSpeechEngine implements SpeechEngine {
    private static final Logger LOG = LoggerFactory.getLogger(WhisperSpeechEngine.class);
    private final WhisperEngine engine;
    private final String modelName;
    private final String backendName;
    private final Supplier<TranscriptionSettings> settings;
    /** Sessions started and not yet finished or cancelled, and when the last one ended (for the idle trim). */
    private final java.util.concurrent.atomic.AtomicInteger open = new java.util.concurrent.atomic.AtomicInteger();
    private volatile long lastEndedNanos = System.nanoTime();

    public WhisperSpeechEngine(WhisperEngine engine, String modelName, String backendName,
            Supplier<TranscriptionSettings> settings) {
        this.engine = engine;
        this.modelName = modelName;
        this.backendName = backendName;
        this.settings = settings;
    }

    public WhisperEngine engine() {
        return engine;
    }

    /** The language codes the model knows ("en" only for English-only models). */
    public List<String> languages() {
        return engine.multilingual() ? engine.languageCodes() : List.of("en");
    }

    @Override
    public String modelName() {
        return modelName;
    }

    @Override
    public String backendName() {
        return backendName;
    }

    @Override
    public Dictation start() {
        return start(null);
    }

    @Override
    public WhisperDictation start(Consumer<String> partial) {
        return start(partial, UnaryOperator.identity());
    }

    /**
     * As {@link #start(Consumer)} with the settings' options passed through {@code adjust} first: for
     * benchmarks only (a token cap for random-weight models, whose text never ends by itself).
     */
    public WhisperDictation start(Consumer<String> partial, UnaryOperator<TranscribeOptions> adjust) {
        TranscriptionSettings s = settings.get();
        open.incrementAndGet();
        return new WhisperDictation(engine.startDictation(adjust.apply(options(s)), partial), s.noSpeechThreshold(),
                this::ended);
    }

    private void ended() {
        lastEndedNanos = System.nanoTime();
        open.decrementAndGet();
    }

    /** Nanoseconds since the last session ended, or -1 while one is open. */
    long idleNanos() {
        return open.get() > 0 ? -1 : System.nanoTime() - lastEndedNanos;
    }

    /** When the last session ended ({@link System#nanoTime()}). */
    long lastEndedNanos() {
        return lastEndedNanos;
    }

    /**
     * The {@link Dictation} over the engine's {@link DictationSession}: speculation, pieces and live
     * text live there.
     */
    public static final class WhisperDictation implements Dictation {
        private final DictationSession session;
        private final double threshold;
        private final Runnable onEnd;
        private final java.util.concurrent.atomic.AtomicBoolean ended = new java.util.concurrent.atomic.AtomicBoolean();

        WhisperDictation(DictationSession session, double threshold, Runnable onEnd) {
            this.session = session;
            this.threshold = threshold;
            this.onEnd = onEnd;
        }

        private void end() {
            if (ended.compareAndSet(false, true)) {
                onEnd.run();
            }
        }

        @Override
        public void feed(float[] samples) {
            session.feed(samples);
        }

        @Override
        public void pause(float[] tail, double quietSeconds) {
            session.pause(tail, quietSeconds);
        }

        @Override
        public Transcript finish() {
            try (session) {
                return finishSession();
            } finally {
                end();
            }
        }

        private Transcript finishSession() {
            TranscriptionResult r = session.finish();
            Transcript t = transcript(r, threshold);
            DictationSession.Release how = session.release();
            DictationSession.SpeculationTiming pass = session.speculationUsed();
            if (pass != null) {
                LOG.info("the text was made at a pause by a pass that started {} ms before the release and ran {} ms"
                        + " with {} of the {} cores it asks for, {} ms after the pause was known",
                        pass.startedBeforeFinishNanos() / 1_000_000, pass.ranNanos() / 1_000_000,
                        String.format(Locale.ROOT, "%.2f", pass.coresHad()), ComputePool.THREADS,
                        pass.afterPauseNanos() / 1_000_000);
            }
            return new Transcript(t.text(), t.language(), t.noSpeech(), how.encodeNanos() / 1_000_000,
                    how.decodeNanos() / 1_000_000, how.speculative());
        }

        @Override
        public void cancel() {
            session.close();
            end();
        }

        /** The pieces the dictation was cut into (for the exactness tests and the benchmark). */
        public List<DictationSession.Range> pieces() {
            return session.pieces();
        }

        /** How the release got its text (null before {@link #finish()}). */
        public DictationSession.Release release() {
            return session.release();
        }
    }

    /**
     * The settings as engine options: greedy or beam, fallback or not, the no-speech gate, the prompt
     * with the vocabulary, and whether a long dictation's pieces are prompted with the text before them.
     */
    public TranscribeOptions options(TranscriptionSettings s) {
        String lang = s.language().equals("auto") ? null : s.language();
        if (lang != null && !languages().contains(lang)) {
            lang = null; // this model does not know it: detect instead of failing every dictation
        }
        if (!engine.multilingual()) {
            lang = null;
        }
        DecodingOptions d = DecodingOptions.defaults().withWithoutTimestamps(true).withLanguage(lang)
                .withTask(s.task() == TranscriptionTask.TRANSLATE && engine.multilingual()
                        ? Task.TRANSLATE : Task.TRANSCRIBE);
        if (s.beamSize() > 1) {
            d = d.withBeamSize(s.beamSize());
        }
        TranscribeOptions o = TranscribeOptions.defaults().withDecoding(d).withNoSpeechThreshold(s.noSpeechThreshold())
                .withInitialPrompt(s.decoderPrompt())
                .withConditionOnPreviousText(s.conditionOnPreviousText())
                .withEncoderContext(s.encoderContext());
        return s.temperatureFallback() ? o : o.withTemperatures(0.0);
    }

    /**
     * The second no-speech gate: Whisper already drops a window whose no-speech probability is
     * above the threshold when its text is also improbable; here a dictation whose every segment
     * is above the threshold counts as silent too, which is where "Thank you." comes from.
     */
    static Transcript transcript(TranscriptionResult r, double noSpeechThreshold) {
        List<Segment> segs = r.segments();
        boolean silent = segs.isEmpty() || segs.stream().allMatch(s -> s.noSpeechProb() > noSpeechThreshold);
        return new Transcript(r.strippedText(), r.language() == null ? null : r.language().toLowerCase(Locale.ROOT),
                silent, r.timings().encodeNanos() / 1_000_000, r.timings().decodeNanos() / 1_000_000);
    }
}
