package dev.dictum.whisper.session;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.BackendFailure;
import dev.dictum.gpu.ModelTooLarge;
import dev.dictum.gpu.backend.GpuHealth;
import dev.dictum.gpu.backend.SelfTest;
import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.whisper.decode.ProgressListener;
import dev.dictum.whisper.decode.TextCodec;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.decode.Transcriber;
import dev.dictum.whisper.decode.TranscriptionResult;
import dev.dictum.whisper.format.WeightSource;
import dev.dictum.whisper.format.detect.ModelFiles;
import dev.dictum.whisper.model.ModelMemory;
import dev.dictum.whisper.model.WhisperModel;
import dev.dictum.whisper.tokenizer.BpeTokenizer;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transcription API: a model loaded onto a backend, from which sessions are started. One
 * engine serves any number of sessions one after another (and concurrent ones, each decoding
 * on its own state; the encoder runs one window at a time).
 */
public final class WhisperEngine implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WhisperEngine.class);
    private final Path path;
    private final WhisperModel model;
    /** The same model on the CPU, loaded the first time a GPU fails (null until then). */
    private volatile WhisperModel cpuModel;
    private final BpeTokenizer tokenizer;
    private final TextCodec codec;
    private final long loadNanos;
    /** Why the model runs on the CPU though a GPU was given (its refusal, with the figures), else null. */
    private final String cpuBecause;

    private WhisperEngine(Path path, WhisperModel model, long loadNanos, String cpuBecause) {
        this.path = path;
        this.model = model;
        this.cpuBecause = cpuBecause;
        this.tokenizer = new BpeTokenizer(model.vocabulary());
        this.codec = new TextCodec() {
            @Override
            public int[] encode(String text) {
                return tokenizer.encode(text);
            }

            @Override
            public String decode(int[] tokens) {
                return tokenizer.decode(tokens);
            }
        };
        this.loadNanos = loadNanos;
    }

    /**
     * Opens the model at {@code path} (any supported format) and loads it onto {@code backend}. A model
     * that does not fit a GPU's memory is refused up front and loaded on the CPU instead: a warning, and
     * {@link #cpuBecause} says why (the app shows it).
     */
    public static WhisperEngine load(Path path, Backend backend) {
        long t0 = System.nanoTime();
        WhisperModel model;
        String cpuBecause = null;
        try {
            model = WhisperModel.load(ModelFiles.open(path), backend);
            if (model.encoderBlocksInTurns() > 0) {
                LOG.info("{} does not fit {} whole: the matrices of {} of its {} encoder blocks take turns there,"
                        + " copied in from host memory before each runs", model.source().description(),
                        backend.name(), model.encoderBlocksInTurns(), model.dims().nAudioLayer());
            }
        } catch (ModelTooLarge e) {
            LOG.warn("{}; running on the CPU", e.getMessage());
            cpuBecause = e.getMessage();
            backend.close();
            model = WhisperModel.load(ModelFiles.open(path), new CpuBackend());
        }
        return new WhisperEngine(path, model, System.nanoTime() - t0, cpuBecause);
    }

    /**
     * The least the model at {@code path} needs in a GPU's memory, in bytes: {@link ModelMemory}'s estimate
     * from its dimensions and its tensors' types (the file's headers are read, nothing loaded), with every
     * encoder block taking turns ({@link ModelMemory#least}), before a backend is chosen for it.
     */
    public static long gpuMemoryNeed(Path path) {
        try (WeightSource s = ModelFiles.open(path)) {
            return ModelMemory.onGpu(s).least().total();
        }
    }

    /** Why the model runs on the CPU though {@link #load} was given a GPU (it did not fit), or null. */
    public String cpuBecause() {
        return cpuBecause;
    }

    public WhisperModel model() {
        return model;
    }

    /** The model file or folder as its loader names it. */
    public String modelDescription() {
        return model.source().description();
    }

    /** The backend the model runs on. */
    public Backend backend() {
        return model.backend();
    }

    /** Whether the model knows languages besides English (and can translate into English). */
    public boolean multilingual() {
        return model.dims().isMultilingual();
    }

    /** The language codes the model's vocabulary knows. */
    public java.util.List<String> languageCodes() {
        return model.vocabulary().languageCodes();
    }

    /** Whether a token id stands for text (below end-of-text), not a special token. */
    public boolean isTextToken(int id) {
        return id < model.vocabulary().specials().eot();
    }

    /**
     * Frees the encoder's part of the scratch memory until the next transcription needs it again, so
     * that an idle app keeps the weights, the kept window and decoder state and the decoders' scratch
     * their captured step names (the app calls it after warm-up and when idle).
     */
    public void releaseScratch() {
        model.releaseScratch();
    }

    public BpeTokenizer tokenizer() {
        return tokenizer;
    }

    public TextCodec codec() {
        return codec;
    }

    public long loadNanos() {
        return loadNanos;
    }

    /** Starts a session that is fed audio and then finished. */
    public TranscriptionSession startSession(TranscribeOptions options, ProgressListener progress) {
        if (model.backend() instanceof CpuBackend) {
            return new TranscriptionSession(new Transcriber(model, codec), model.dims().nMels(), options, progress);
        }
        WhisperModel m = healthy() ? model : cpuModel();
        return new TranscriptionSession(new Transcriber(m, codec), model.dims().nMels(), options, progress,
                m == model ? this::finishOnCpu : null);
    }

    /**
     * Starts a dictation: fed trimmed audio while the user speaks, told of pauses, finished at the
     * release (see {@link DictationSession}).
     *
     * @param partial receives live text on the session's thread; null: none is made
     */
    public DictationSession startDictation(TranscribeOptions options, java.util.function.Consumer<String> partial) {
        if (model.backend() instanceof CpuBackend) {
            return new DictationSession(model, codec, options, null, partial);
        }
        WhisperModel m = healthy() ? model : cpuModel();
        return new DictationSession(m, codec, options, m == model ? e -> {
            finishOnCpu(e);
            return cpuModel();
        } : null, partial);
    }

    /**
     * A GPU that failed earlier is used again only once a fresh self-test passes on it.
     */
    private boolean healthy() {
        String name = model.backend().name();
        if (!GpuHealth.needsSelfTest(name)) {
            return true;
        }
        try {
            if (SelfTest.run(model.backend()).passed()) {
                GpuHealth.passed(name);
                LOG.warn("{} passed its self-test again; using it", name);
                return true;
            }
        } catch (RuntimeException e) {
            LOG.debug("self-test after a failure", e);
        }
        return false;
    }

    /** Called on the decoding thread when the device fails: marks it and hands back a CPU transcriber. */
    private Transcriber finishOnCpu(BackendFailure e) {
        String name = model.backend().name();
        GpuHealth.failed(name, e.getMessage());
        LOG.warn("{} failed ({}); finishing this transcription on the CPU", name, e.getMessage());
        return new Transcriber(cpuModel(), codec);
    }

    private WhisperModel cpuModel() {
        WhisperModel m = cpuModel;
        if (m == null) {
            synchronized (this) {
                m = cpuModel;
                if (m == null) {
                    m = WhisperModel.load(ModelFiles.open(path), new CpuBackend());
                    cpuModel = m;
                }
            }
        }
        return m;
    }

    /** Transcribes audio that is all there already (16 kHz mono). */
    public TranscriptionResult transcribe(float[] audio16k, TranscribeOptions options) {
        try (TranscriptionSession s = startSession(options, ProgressListener.NONE)) {
            s.feed(audio16k);
            return s.finish();
        }
    }

    /**
     * The definition of a dictation's exact text: {@code audio} cut into {@code pieces}, each
     * transcribed from scratch in order, prompted (with condition_on_previous_text) by the tokens of
     * the pieces before it since the last prompt reset, in the language of the first; the texts
     * concatenated. {@link DictationSession#finish()} must equal it; the tests compare the two.
     */
    public String transcribeInPieces(float[] audio, java.util.List<DictationSession.Range> pieces,
            TranscribeOptions options) {
        StringBuilder text = new StringBuilder();
        java.util.List<Integer> previous = new java.util.ArrayList<>();
        TranscribeOptions o = options;
        for (DictationSession.Range p : pieces) {
            StreamingMelSource mel = new StreamingMelSource(model.dims().nMels());
            mel.push(audio, p.start(), p.end() - p.start());
            mel.finish();
            int[] prompt = o.conditionOnPreviousText() ? previous.stream().mapToInt(Integer::intValue).toArray()
                    : new int[0];
            TranscriptionResult r = new Transcriber(model, codec).transcribe(mel, o, ProgressListener.NONE, prompt);
            for (dev.dictum.whisper.decode.Segment s : r.segments()) {
                for (int t : s.tokens()) {
                    previous.add(t);
                }
                if (s.temperature() > 0.5) {
                    previous.clear(); // OpenAI drops the prompt after a window decoded this hot
                }
            }
            if (o.decoding().language() == null) {
                o = o.withDecoding(o.decoding().withLanguage(r.language()));
            }
            text.append(r.text());
        }
        return text.toString();
    }

    @Override
    public void close() {
        try {
            model.close();
        } finally {
            if (cpuModel != null) {
                cpuModel.close();
            }
        }
    }
}
