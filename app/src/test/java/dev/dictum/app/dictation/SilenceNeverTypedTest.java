package dev.dictum.app.dictation;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.dictum.app.engine.EngineManager;
import dev.dictum.app.history.HistoryEntry;
import dev.dictum.app.history.HistoryStatus;
import dev.dictum.app.settings.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Silence is never typed (issue 24 item 4): 200 holds of room noise, breathing-like noise and digital
 * silence, 0.3 to 30 s long (made here from fixed seeds), through the dictation loop with the default
 * settings (VAD gate, then the model with its default temperature fallback and no-speech threshold):
 * nothing is inserted, each ends with "no speech" in the log and an EMPTY history row. The VAD gate
 * comes before the model and does not depend on it, so every model in testdata gets the holds that
 * passed the gate (with toy-en), plus a few of each kind in full, through its own loop.
 */
class SilenceNeverTypedTest {
    static final int HOLDS = 200;

    @TempDir
    Path dir;

    DictationControllerTest f;
    final ListAppender<ILoggingEvent> log = new ListAppender<>();
    final Logger controllerLog = (Logger) LoggerFactory.getLogger(DictationController.class);

    ch.qos.logback.classic.Level levelBefore;

    @BeforeEach
    void listen() {
        levelBefore = controllerLog.getLevel();
        controllerLog.setLevel(ch.qos.logback.classic.Level.INFO); // the test configuration may log less
        log.start();
        controllerLog.addAppender(log);
    }

    @AfterEach
    void close() {
        controllerLog.detachAppender(log);
        controllerLog.setLevel(levelBefore);
        if (f != null) {
            f.close();
        }
    }

    /** One hold: what it is, and how to make its audio (made when played: all 200 would be 80 MB). */
    record Hold(String what, int kind, int samples, double level, long seed) {
        float[] audio() {
            return switch (kind) {
                case 0 -> roomNoise(samples, level, seed);
                case 1 -> breathing(samples, level, seed);
                default -> new float[samples];
            };
        }
    }

    /** The 200 holds: kinds in turn, lengths log-uniform in 0.3-30 s, levels -70 to -25 dBFS. */
    static List<Hold> holds() {
        Random r = new Random(24);
        List<Hold> out = new ArrayList<>();
        for (int i = 0; i < HOLDS; i++) {
            double seconds = 0.3 * Math.pow(100, r.nextDouble());
            int n = (int) Math.round(seconds * 16000);
            double level = Math.pow(10, (-70 + 45 * r.nextDouble()) / 20);
            long seed = r.nextLong();
            String what = new String[] {"room noise", "breathing", "digital silence"}[i % 3];
            out.add(new Hold(String.format("hold %d: %s, %.1f s, %.0f dBFS", i, what, seconds, 20 * Math.log10(level)),
                    i % 3, n, level, seed));
        }
        return out;
    }

    /** Pink-ish noise (Paul Kellett's filter on white noise) at an RMS of about {@code level}. */
    static float[] roomNoise(int n, double level, long seed) {
        Random r = new Random(seed);
        float[] x = new float[n];
        double b0 = 0, b1 = 0, b2 = 0;
        for (int i = 0; i < n; i++) {
            double w = r.nextGaussian();
            b0 = 0.99765 * b0 + w * 0.0990460;
            b1 = 0.96300 * b1 + w * 0.2965164;
            b2 = 0.57000 * b2 + w * 1.0526913;
            x[i] = (float) (level * (b0 + b1 + b2 + w * 0.1848) / 3);
        }
        return x;
    }

    /** Brown noise swelling and fading with breaths of 3-5 s (in and out), as a close microphone hears them. */
    static float[] breathing(int n, double level, long seed) {
        Random r = new Random(seed);
        float[] x = new float[n];
        double brown = 0;
        double period = 3 + 2 * r.nextDouble();
        for (int i = 0; i < n; i++) {
            brown = 0.995 * brown + 0.1 * r.nextGaussian();
            double phase = (i / 16000.0) % period / period;
            double envelope = Math.pow(Math.sin(Math.PI * phase), 2);
            x[i] = (float) Math.max(-1, Math.min(1, level * 4 * envelope * brown));
        }
        return x;
    }

    @Test
    void twoHundredQuietHoldsTypeNothingOnEveryModel() throws Exception {
        List<Hold> holds = holds();
        List<Hold> reachedModel = new ArrayList<>();
        long t0 = System.nanoTime();
        EngineManager toy = engine("toy-en/ggml-toy-en.bin");
        try {
            f = fixture(toy, dir.resolve("toy-en"));
            for (Hold h : holds) {
                if (dictate(h)) {
                    reachedModel.add(h);
                }
            }
        } finally {
            f.close();
            f = null;
            toy.close();
        }
        long seconds = (System.nanoTime() - t0) / 1_000_000_000;
        System.out.printf("silence: %d holds, %d passed the VAD gate to the model, %d s%n", holds.size(),
                reachedModel.size(), seconds);
        // Every other model: the holds that reached toy-en's model, and the first three of each kind whole.
        List<Hold> forEach = new ArrayList<>(reachedModel);
        forEach.addAll(holds.subList(0, 9));
        for (String m : otherModels()) {
            EngineManager e = engine(m);
            try {
                f = fixture(e, dir.resolve(m.replace('/', '_')));
                for (Hold h : forEach) {
                    dictate(h);
                }
            } finally {
                f.close();
                f = null;
                e.close();
            }
        }
    }

    /** Plays one hold; asserts its one outcome; true when the model heard it (it passed the VAD gate). */
    boolean dictate(Hold h) throws Exception {
        int logged = log.list.size();
        int rows = f.history.count();
        assertThat(f.controller.start()).as(h.what()).isTrue();
        f.mic.play(h.audio());
        f.controller.stop(false);
        f.awaitIdle();
        assertThat(f.inserted).as(h.what()).isEmpty();
        List<String> said = log.list.subList(logged, log.list.size()).stream().map(ILoggingEvent::getFormattedMessage)
                .filter(m -> m.contains("nothing inserted") || m.startsWith("dictation:") || m.contains("too short")
                        || m.contains("failed")).toList();
        assertThat(said).as(h.what()).singleElement().asString().contains("no speech");
        assertThat(f.history.count()).isEqualTo(rows + 1);
        HistoryEntry e = f.history.recent(1, 0).getFirst();
        assertThat(e.status()).as(h.what()).isEqualTo(HistoryStatus.EMPTY);
        return e.transcribeMillis() >= 0;
    }

    static EngineManager engine(String model) throws InterruptedException {
        EngineManager e = new EngineManager(() -> Settings.defaults().transcription());
        e.load(DictationControllerTest.TESTDATA.resolve("models").resolve(model), model, "cpu");
        assertThat(e.await(300_000)).as(model).isNotNull();
        return e;
    }

    DictationControllerTest fixture(EngineManager engine, Path where) throws Exception {
        DictationControllerTest t = new DictationControllerTest();
        t.dir = Files.createDirectories(where);
        t.controller(engine);
        return t;
    }

    /** Every ggml model file in testdata other than toy-en's f32 one (the loop above). */
    static List<String> otherModels() throws Exception {
        Path models = DictationControllerTest.TESTDATA.resolve("models");
        try (Stream<Path> s = Files.walk(models, 2)) {
            return s.filter(p -> p.getFileName().toString().matches("ggml-.*\\.bin"))
                    .map(p -> models.relativize(p).toString()).filter(m -> !m.equals("toy-en/ggml-toy-en.bin"))
                    .sorted().toList();
        }
    }
}
