package dev.dictum.app.engine;

import dev.dictum.app.dictation.Dictation;
import dev.dictum.app.dictation.SpeechEngine;
import dev.dictum.app.models.DiscoveredModel;
import dev.dictum.app.settings.TranscriptionSettings;
import dev.dictum.audio.AudioInput;
import dev.dictum.gpu.Backend;
import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.gpu.select.Backends;
import dev.dictum.whisper.decode.DecodingOptions;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.session.WhisperEngine;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads the chosen model in the background and warms it up before saying it is ready: the first
 * 30-second encode of a fresh JVM takes about ten times as long as later ones (the JIT compiles
 * the kernels on first use), so throw-away dictations run right after loading until the first real
 * one preempts them, and the first dictation gets compiled code. The previous engine serves until
 * the new one is ready.
 */
public final class EngineManager implements SpeechEngine.Source, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EngineManager.class);
    /**
     * Measured (docs/benchmarks.md, "Start-up"): warm-up runs until a dictation needs the engine,
     * which preempts it within one encoder layer or decoder step, so more warm-up only means more
     * compiled code when the first dictation comes. With two, a dictation released 6 s after launch
     * took 530-610 ms; with five 320-390 ms (one run 955). Before the encoder could be preempted, five
     * made it worse (the release waited for a whole warm-up encode).
     */
    private static final int WARM_UP_DICTATIONS = 5;
    /**
     * Past this, warm-up stops after its second dictation: the JIT has compiled what two passes run,
     * and a large model's passes (a turbo-sized one: 20-30 s each on 2 cores) would only burn CPU at
     * every launch.
     */
    private static final long WARM_UP_ENOUGH_NANOS = 8_000_000_000L;
    /**
     * Idle this long after a dictation, the engine gives back what dictations grew: the encoder's
     * scratch and, through one full collection, the heap down to the live set (G1's periodic
     * collection alone left toy-en at 420 MB 20 s after 50 dictations, against 262 MB after warm-up).
     */
    private static final long IDLE_TRIM_NANOS = 8_000_000_000L;

    /** Where loading stands, for the tray. */
    public enum Phase { NONE, LOADING, WARMING_UP, READY, FAILED }

    /**
     * @param phase   where it stands
     * @param model   the model's readable name (or null)
     * @param backend the backend's name (or null)
     * @param detail  the error when FAILED, the warm-up time when READY
     */
    public record State(Phase phase, String model, String backend, String detail) {
    }

    public interface Listener {
        void changed(State s);

        /**
         * A model could not be loaded. It was not made the choice: {@code stillUsing} (the model that
         * keeps serving, or null when there is none) stays ready.
         *
         * @param why the reason in one clause, e.g. "not a ggml or Hugging Face Whisper model"
         */
        default void failed(String model, String why, String stillUsing) {
        }

        /** A model loaded and warmed up: the moment it may be remembered as the user's choice. */
        default void working(Path path) {
        }

        /**
         * The model is being loaded on the CPU though the backend chosen was a GPU: it does not fit the
         * GPU's free memory ({@code why} names the figures, in one sentence for a notice).
         */
        default void cpuInstead(String why) {
        }
    }

    private final Supplier<TranscriptionSettings> settings;
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    /** The models on disk, for a notice to name one that fits a GPU where the chosen one does not. */
    private volatile Supplier<List<DiscoveredModel>> installed = List::of;
    private volatile WhisperSpeechEngine ready;
    private volatile Path readyPath;
    private volatile Path requested; // the last path asked for, loading or loaded
    private volatile State state = new State(Phase.NONE, null, null, "No model chosen: pick one in the Model menu");
    private Thread loader; // guarded by this
    /** The warm-up's dictation in progress, cancelled when a real one needs the engine. */
    private volatile Dictation warming;
    private volatile boolean dictationWaiting;
    /** Set by {@link #holdWarmUp} until {@link #releaseWarmUp}: warm-up waits (loading does not). */
    private volatile boolean warmUpHeld;
    private volatile long generation; // written under this; read without it where a waiter checks it
    /**
     * Notified whenever what a waiter waits for may have changed: the state, a dictation waiting, the
     * warm-up released, another load. The dictation waiting for the engine and the held warm-up wait on
     * it instead of polling, so neither starts up to a poll period late. Never held while taking this
     * object's own lock (load holds that lock and then notifies).
     */
    private final Object wake = new Object();
    private final java.util.concurrent.ScheduledExecutorService idleTrim =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
                    r -> Thread.ofPlatform().name("dictum-idle-trim").daemon().unstarted(r));
    private long trimmedAfter; // the lastEndedNanos of the last trim; only the idle-trim thread uses it

    public EngineManager(Supplier<TranscriptionSettings> settings) {
        this.settings = settings;
        idleTrim.scheduleWithFixedDelay(this::trimIfIdle, 2, 2, java.util.concurrent.TimeUnit.SECONDS);
    }

    /** Once per idle stretch after dictations: frees the encoder's scratch and shrinks the heap. */
    private void trimIfIdle() {
        try {
            WhisperSpeechEngine e = ready;
            if (e == null || state.phase() != Phase.READY) {
                return;
            }
            long ended = e.lastEndedNanos();
            if (ended != trimmedAfter && e.idleNanos() >= IDLE_TRIM_NANOS) {
                trimmedAfter = ended;
                e.engine().releaseScratch();
                System.gc();
                LOG.debug("idle: shared scratch trimmed, heap collected");
            }
        } catch (RuntimeException ex) {
            LOG.debug("idle trim", ex); // a model closed meanwhile: nothing to give back
        }
    }

    public void addListener(Listener l) {
        listeners.add(l);
    }

    /** Where the models on disk come from (the model menu's list), for {@link Listener#cpuInstead}. */
    public void installedModels(Supplier<List<DiscoveredModel>> models) {
        installed = models;
    }

    public State state() {
        return state;
    }

    /** The ready engine's languages, or "en" before one is loaded. */
    public List<String> languages() {
        WhisperSpeechEngine e = ready;
        return e == null ? List.of() : e.languages();
    }

    /** The path of the model that serves now, or null. */
    public Path readyPath() {
        return readyPath;
    }

    /** The last path {@link #load} was asked for (loading, loaded or failed), or null. */
    public Path requested() {
        return requested;
    }

    /**
     * At start: a model loads at once, but its warm-up waits for {@link #releaseWarmUp} (the hotkey is
     * live), so that its passes and the JIT compiling them do not take the two cores the rest of start-up
     * runs on (issue 24 item 6). A dictation that needs the engine before then skips warm-up altogether.
     */
    public void holdWarmUp() {
        warmUpHeld = true;
    }

    /** Lets a held warm-up start (and any later one). */
    public void releaseWarmUp() {
        warmUpHeld = false;
        wakeWaiters();
    }

    private void wakeWaiters() {
        synchronized (wake) {
            wake.notifyAll();
        }
    }

    /** Loads {@code path} on {@code backendName} in the background; the tray hears about each phase. */
    public synchronized void load(Path path, String name, String backendName) {
        long gen = ++generation;
        requested = path;
        dictationWaiting = false;
        set(new State(Phase.LOADING, name, backendName, null)); // wakes a held warm-up of the load it replaces
        loader = Thread.ofPlatform().name("dictum-model-load").daemon().start(() -> {
            long t0 = System.nanoTime();
            WhisperEngine engine = null;
            try {
                Backend backend = Backends.open(backendName);
                // Issue 22: a model that does not fit the GPU's free memory runs on the CPU, and says so.
                String cpuBecause = GpuMemoryCheck.check(path, name, backend, installed);
                if (cpuBecause != null) {
                    backend.close();
                    backend = new CpuBackend();
                    cpuInstead(gen, cpuBecause);
                }
                engine = WhisperEngine.load(path, backend);
                if (engine.cpuBecause() != null) { // the GPU's own refusal: the free memory shrank meanwhile
                    cpuInstead(gen, engine.cpuBecause() + ": using the CPU");
                }
                // "auto" may become a GPU, a GPU the CPU: report what runs ("cuda (…)" → "cuda").
                String actual = engine.backend().name().split("[ (]", 2)[0].toLowerCase(java.util.Locale.ROOT);
                LOG.info("model {} loaded on {}", name, engine.backend().name());
                WhisperSpeechEngine candidate = new WhisperSpeechEngine(engine, name, actual, settings);
                if (!current(gen)) {
                    engine.close();
                    return;
                }
                long loaded = System.nanoTime();
                set(new State(Phase.WARMING_UP, name, actual, null));
                awaitWarmUpTurn(name, gen);
                if (!current(gen)) {
                    engine.close(); // another model was chosen meanwhile
                    return;
                }
                long w0 = System.nanoTime();
                boolean complete = warmUp(candidate);
                long warmMillis = (System.nanoTime() - w0) / 1_000_000;
                synchronized (this) {
                    if (gen != generation) {
                        engine.close();
                        return;
                    }
                    WhisperSpeechEngine old = ready;
                    ready = candidate;
                    readyPath = path;
                    if (old != null) {
                        old.engine().close();
                    }
                }
                LOG.info("Dictum ready: model {} on {} (loaded in {} ms, warmed up in {} ms{})", name, actual,
                        (loaded - t0) / 1_000_000, warmMillis, complete ? "" : ", cut short by a dictation");
                set(new State(Phase.READY, name, actual, "warmed up in " + warmMillis + " ms"));
                for (Listener l : listeners) {
                    l.working(path);
                }
            } catch (RuntimeException | Error e) {
                if (engine != null) {
                    engine.close();
                }
                String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
                LOG.warn("model {} could not be loaded: {}", path, why);
                if (current(gen)) {
                    // The model's messages start with its path; the notice names the model already.
                    failed(name, why.startsWith(path + ": ") ? why.substring(path.toString().length() + 2) : why);
                }
            }
        });
    }

    @Override
    public SpeechEngine ready() {
        return ready;
    }

    @Override
    public SpeechEngine await(long millis) throws InterruptedException {
        // A dictation is waiting: warm-up yields to it (the engine is loaded; only JIT time is lost).
        Phase now = state.phase();
        if (now == Phase.LOADING || now == Phase.WARMING_UP) {
            dictationWaiting = true;
            wakeWaiters(); // a held warm-up is skipped at once
            Dictation w = warming;
            if (w != null) {
                w.cancel();
            }
        }
        long until = System.nanoTime() + millis * 1_000_000;
        synchronized (wake) {
            while (true) {
                Phase p = state.phase();
                long left = until - System.nanoTime();
                if (p == Phase.READY || p == Phase.FAILED || p == Phase.NONE || left <= 0) {
                    return ready; // set before the state says READY
                }
                TimeUnit.NANOSECONDS.timedWait(wake, left);
            }
        }
    }

    @Override
    public String unavailableReason() {
        State s = state;
        return switch (s.phase()) {
            case READY -> null;
            case NONE -> s.detail();
            case LOADING, WARMING_UP -> "Loading " + s.model() + "…";
            case FAILED -> "The model could not be loaded: " + s.detail();
        };
    }

    @Override
    public synchronized void close() {
        idleTrim.shutdownNow();
        generation++;
        wakeWaiters(); // a loader held before its warm-up ends
        WhisperSpeechEngine e = ready;
        ready = null;
        if (e != null) {
            e.engine().close();
        }
    }

    /** The failed model is not the choice: the one that served before (if any) is ready again. */
    private void failed(String name, String why) {
        WhisperSpeechEngine old = ready;
        String reason = why.strip().replaceAll("\\s*[\\r\\n]+\\s*", " ").replaceAll("[.]$", "");
        if (old != null) {
            requested = readyPath;
            set(new State(Phase.READY, old.modelName(), old.backendName(), "kept: " + name + " could not be loaded"));
        } else {
            set(new State(Phase.FAILED, name, null, reason));
        }
        // After the state: a listener may start loading another model at once (the last one that worked).
        for (Listener l : listeners) {
            l.failed(name, reason, old == null ? null : old.modelName());
        }
    }

    /** Until warm-up is no longer held, a dictation waits for the engine, or another load replaced this one. */
    private void awaitWarmUpTurn(String name, long gen) {
        if (!warmUpHeld) {
            return;
        }
        long t0 = System.nanoTime();
        try {
            synchronized (wake) {
                while (warmUpHeld && !dictationWaiting && gen == generation) {
                    wake.wait();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // nothing interrupts the loader; keep the flag for whoever asks
        }
        LOG.info("model {}: warm-up {} after waiting {} ms for the hotkey", name,
                dictationWaiting ? "skipped (a dictation needs the engine)" : "starts", (System.nanoTime() - t0) / 1_000_000);
    }

    private synchronized boolean current(long gen) {
        return gen == generation;
    }

    private void cpuInstead(long gen, String why) {
        LOG.warn("{}", why);
        if (current(gen)) {
            for (Listener l : listeners) {
                l.cpuInstead(why);
            }
        }
    }

    private void set(State s) {
        state = s;
        wakeWaiters();
        for (Listener l : listeners) {
            l.changed(s);
        }
    }

    /**
     * Transcribes a saved recording with a model loaded for this call only (the history's
     * "Transcribe again with…"), in {@code language} ("auto" detects it).
     */
    public static String transcribeFile(Path wav, Path model, String backend, String language) throws IOException {
        TranscribeOptions options = TranscribeOptions.defaults().withDecoding(DecodingOptions.defaults()
                .withLanguage("auto".equals(language) ? null : language));
        try (WhisperEngine engine = WhisperEngine.load(model, Backends.open(backend))) {
            return engine.transcribe(AudioInput.readMono16k(wav), options).strippedText();
        }
    }

    /**
     * Dictations of a quiet tone through exactly a dictation's path (the engine's session with
     * the options from the settings, fed in 100 ms pieces as the microphone does): every kernel and
     * shape a dictation uses gets compiled before the first real one. A dictation that arrives
     * meanwhile cancels it ({@link #await}): the session's model checks between encoder layers and
     * before every decoder step, so the engine is free within milliseconds. Returns whether it ran to
     * the end.
     */
    private boolean warmUp(WhisperSpeechEngine engine) {
        float[] audio = WarmUpAudio.speech();
        boolean complete = true;
        long started = System.nanoTime();
        for (int i = 0; i < WARM_UP_DICTATIONS && complete; i++) {
            if (i >= 2 && System.nanoTime() - started > WARM_UP_ENOUGH_NANOS) {
                break;
            }
            Dictation session = engine.start();
            warming = session;
            try {
                if (dictationWaiting) {
                    session.cancel();
                    complete = false;
                    break;
                }
                // The pass at a pause runs and its text is the one finish() returns, as in a dictation
                // ending in quiet.
                WarmUpAudio.feedAsSpoken(session, audio);
                long p0 = System.nanoTime();
                session.finish();
                LOG.debug("warm-up dictation {}: {} ms after its audio", i + 1, (System.nanoTime() - p0) / 1_000_000);
            } catch (RuntimeException e) {
                if (!dictationWaiting) {
                    throw e;
                }
                complete = false; // cancelled for a dictation
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // nothing interrupts the loader; keep the flag for whoever asks
                session.cancel();
                complete = false;
            } finally {
                warming = null;
            }
        }
        // What warm-up allocated is garbage now, and the encoder's scratch is not needed until the first
        // dictation: one full collection lets G1 shrink the heap to the live set (the launcher's
        // MaxHeapFreeRatio) instead of idling at warm-up's peak.
        if (complete) {
            engine.engine().releaseScratch();
            System.gc();
        }
        return complete;
    }
}
