package dev.dictum.app.dictation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dictum.app.engine.WhisperSpeechEngine;
import dev.dictum.app.history.HistoryEntry;
import dev.dictum.app.history.HistoryStatus;
import dev.dictum.app.settings.Settings;
import dev.dictum.audio.AudioInput;
import dev.dictum.gpu.backend.GpuBackend;
import dev.dictum.gpu.device.FaultInjectingDriver;
import dev.dictum.gpu.device.GpuException;
import dev.dictum.gpu.select.Backends;
import dev.dictum.whisper.session.WhisperEngine;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing is lost when a dictation is cut off: the process killed ({@code kill -9}, in a child JVM),
 * a GPU driver fault mid-dictation, the microphone gone. Each time the audio so far is a playable
 * WAV in History that Retry transcribes exactly (toy-en), and no capture journal is left.
 * Uses {@link DictationControllerTest} as its fixture (stand-in microphone, window and keyboard).
 */
class InterruptedDictationTest {
    static final Path SAMPLE = DictationControllerTest.TESTDATA.resolve("data/toy-en-samples/sample_02.wav");
    static final String SPOKEN = "Tell Mark that I will be 9 minutes late.";

    @TempDir
    Path dir;

    final DictationControllerTest f = new DictationControllerTest();

    @BeforeAll
    static void engine() throws InterruptedException {
        DictationControllerTest.loadToyEngine();
    }

    @AfterAll
    static void closeEngine() {
        DictationControllerTest.closeEngine();
    }

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void aKilledProcessLeavesTheRecordingSoFarForTheNextStart() throws Exception {
        float[] voice = AudioInput.readMono16k(SAMPLE);
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", childClassPath(), "-Ddictum.testdata="
                + System.getProperty("dictum.testdata"), DictatingUntilKilled.class.getName(), dir.toString(),
                SAMPLE.toString()).redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            do {
                line = out.readLine();
            } while (line != null && !line.startsWith("journal "));
            assertThat(line).as("the child reports its journal").isNotNull();
            Path journal = Path.of(line.substring("journal ".length()));
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(journal))).isEqualTo("rw-------");
            child.destroyForcibly(); // SIGKILL: no shutdown hook, no finally
            assertThat(child.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(child.exitValue()).isEqualTo(137);
        } finally {
            child.destroyForcibly();
        }
        assertThat(journals()).hasSize(1);

        f.dir = dir;
        f.controller(DictationControllerTest.ENGINE);
        assertThat(f.controller.recoverInterrupted()).isEqualTo(1);
        HistoryEntry e = f.history.recent(1, 0).getFirst();
        assertThat(e.status()).isEqualTo(HistoryStatus.FAILED);
        assertThat(e.error()).isEqualTo(InterruptedRecordings.NOTE).startsWith("interrupted");
        assertThat(e.durationMillis()).isEqualTo(Math.round(voice.length / 16.0));
        float[] kept = AudioInput.readMono16k(e.wavPath());
        assertThat(kept).hasSize(voice.length);
        assertThat(maxDifference(kept, voice)).isLessThan(1.5f / 32768);
        assertThat(journals()).isEmpty();
        assertThat(f.controller.status().retryAvailable()).isTrue();
        assertThat(f.notices).anySatisfy(n -> assertThat(n).contains("interrupted").contains("Retry"));

        f.controller.retryFailed();
        f.awaitIdle();
        assertThat(f.inserted).containsExactly(SPOKEN);
        assertThat(f.history.get(e.id()).orElseThrow().status()).isEqualTo(HistoryStatus.OK);
        assertThat(f.controller.recoverInterrupted()).as("recovered once").isZero();
    }

    /**
     * At start the journals of the last run are listed before the hotkey is live and recovered behind
     * it, once the history has opened: neither the listing nor a dictation pressed at once waits for the
     * history, and the new dictation's own journal is not taken for an interrupted one.
     */
    @Test
    void atStartTheLastRunsJournalIsRecoveredBehindTheHotkeyOnceTheHistoryOpens() throws Exception {
        float[] voice = voice();
        CaptureJournal old = CaptureJournal.open(dir.resolve("rec"), Instant.ofEpochMilli(1_700_000_000_000L));
        old.append(Arrays.copyOf(voice, 24000)); // 1.5 s, and the header's sizes never written: the process died
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (Files.size(old.file()) < 44 + 2L * 24000 && System.nanoTime() < until) {
            Thread.sleep(5);
        }
        f.dir = dir;
        f.historyOpened = new java.util.concurrent.CountDownLatch(1); // the history is still opening
        f.controller(DictationControllerTest.ENGINE);
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> f.controller.recoverInterruptedLater());
        assertThat(f.controller.start()).isTrue(); // pressed the moment the hotkey is live
        f.mic.play(Arrays.copyOf(voice, voice.length + 16000));
        f.controller.stop(false);
        Thread.sleep(300);
        assertThat(f.history.recent(10, 0)).as("nothing written before the history opened").isEmpty();

        f.historyOpened.countDown();
        f.awaitIdle();
        assertThat(f.inserted).containsExactly(SPOKEN);
        List<HistoryEntry> rows = f.history.recent(10, 0);
        assertThat(rows).extracting(HistoryEntry::status).containsExactlyInAnyOrder(HistoryStatus.FAILED, HistoryStatus.OK);
        HistoryEntry recovered = rows.stream().filter(r -> r.status() == HistoryStatus.FAILED).findFirst().orElseThrow();
        assertThat(recovered.error()).isEqualTo(InterruptedRecordings.NOTE);
        assertThat(recovered.time()).isEqualTo(Instant.ofEpochMilli(1_700_000_000_000L));
        assertThat(AudioInput.readMono16k(recovered.wavPath())).hasSize(24000);
        HistoryEntry dictated = rows.stream().filter(r -> r.status() == HistoryStatus.OK).findFirst().orElseThrow();
        assertThat(dictated.text()).isEqualTo(SPOKEN);
        assertThat(AudioInput.readMono16k(dictated.wavPath())).hasSize(voice.length + 16000);
        assertThat(journals()).isEmpty();
    }

    @Test
    void aGpuDriverFaultMidDictationKeepsTheRecording() throws Exception {
        float[] voice = AudioInput.readMono16k(SAMPLE);
        // The session's device fails one second in, as FaultInjectingDriver makes a launch fail.
        int[] fed = new int[1];
        OneEngine faulting = new OneEngine(new StubEngine("cuda", samples -> {
            fed[0] += samples.length;
            if (fed[0] > 16000) {
                throw new GpuException("cuLaunchKernel", 719, "CUDA_ERROR_LAUNCH_FAILED", "injected fault", null, null);
            }
        }));
        f.dir = dir;
        f.controller(faulting);
        f.controller.start();
        f.mic.play(voice);
        f.controller.stop(false);
        f.awaitIdle();
        assertThat(f.inserted).isEmpty();
        HistoryEntry e = f.history.recent(1, 0).getFirst();
        assertThat(e.status()).isEqualTo(HistoryStatus.FAILED);
        assertThat(e.error()).contains("CUDA_ERROR_LAUNCH_FAILED");
        assertThat(AudioInput.readMono16k(e.wavPath())).hasSize(voice.length);
        assertThat(journals()).isEmpty();
        faulting.engine = DictationControllerTest.ENGINE.ready(); // the device is back (or the CPU takes over)
        retryInsertsExactly(e);
    }

    /** On a machine with a GPU: a real launch fails mid-dictation; the text still arrives exactly (CPU fallback). */
    @Test
    void aRealGpuFaultMidDictationStillInsertsTheText() throws Exception {
        GpuBackend real;
        try {
            real = Backends.openGpu(System.getenv().getOrDefault("DICTUM_TEST_GPU_API", "cuda"));
        } catch (IllegalArgumentException e) {
            assumeTrue(false, "skipped: no GPU (" + e.getMessage() + ")");
            return;
        }
        FaultInjectingDriver faulty = new FaultInjectingDriver(real.driver(), "launch", Integer.MAX_VALUE);
        real.close();
        try (WhisperEngine we = WhisperEngine.load(DictationControllerTest.TESTDATA.resolve(
                "models/toy-en/ggml-toy-en-q8_0.bin"), new GpuBackend(faulty, 0))) {
            WhisperSpeechEngine engine = new WhisperSpeechEngine(we, "toy-en", "gpu",
                    () -> Settings.defaults().transcription());
            f.dir = dir;
            f.controller(new OneEngine(engine));
            faulty.failAfter(40);
            f.controller.start();
            f.mic.play(Arrays.copyOf(voice(), voice().length + 16000));
            f.controller.stop(false);
            f.awaitIdle();
            assertThat(faulty.fired()).isTrue();
            assertThat(f.inserted).containsExactly(SPOKEN);
            assertThat(journals()).isEmpty();
        }
    }

    @Test
    void aMicrophoneThatDisappearsKeepsTheRecording() throws Exception {
        float[] voice = AudioInput.readMono16k(SAMPLE);
        f.dir = dir;
        f.controller(DictationControllerTest.ENGINE);
        f.controller.start();
        f.mic.play(voice);
        // While it records, the audio so far is on disk, owner-only.
        Path journal = journals().getFirst();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (Files.size(journal) < 44 + 2L * voice.length && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        assertThat(Files.size(journal)).isEqualTo(44 + 2L * voice.length);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(journal))).isEqualTo("rw-------");
        f.mic.sink.deviceLost("device unplugged");
        f.awaitIdle();
        assertThat(f.inserted).isEmpty();
        HistoryEntry e = f.history.recent(1, 0).getFirst();
        assertThat(e.status()).isEqualTo(HistoryStatus.FAILED);
        assertThat(e.error()).isEqualTo("microphone lost: device unplugged");
        assertThat(AudioInput.readMono16k(e.wavPath())).hasSize(voice.length);
        assertThat(journals()).isEmpty();
        retryInsertsExactly(e);
    }

    /** The tray's Retry (the recording is the one offered) transcribes the kept WAV with the toy engine, exactly. */
    private void retryInsertsExactly(HistoryEntry failed) throws Exception {
        assertThat(f.controller.status().retryAvailable()).isTrue();
        f.controller.retryFailed();
        f.awaitIdle();
        assertThat(f.inserted).containsExactly(SPOKEN);
        assertThat(f.history.get(failed.id()).orElseThrow().status()).isEqualTo(HistoryStatus.OK);
    }

    private static float[] voice() throws Exception {
        return AudioInput.readMono16k(SAMPLE);
    }

    private List<Path> journals() throws Exception {
        try (Stream<Path> s = Files.list(dir.resolve("rec"))) {
            return s.filter(p -> p.getFileName().toString().startsWith(CaptureJournal.PREFIX)).sorted().toList();
        }
    }

    private static float maxDifference(float[] a, float[] b) {
        float m = 0;
        for (int i = 0; i < a.length; i++) {
            m = Math.max(m, Math.abs(a[i] - Math.clamp(b[i], -1f, 1f)));
        }
        return m;
    }

    /** An engine whose sessions pass what they are fed to {@code feed} and never finish (the dictation is cut off first). */
    record StubEngine(String backendName, java.util.function.Consumer<float[]> feed) implements SpeechEngine {
        @Override
        public Dictation start() {
            return new Dictation() {
                @Override
                public void feed(float[] samples) {
                    feed.accept(samples);
                }

                @Override
                public Transcript finish() {
                    throw new IllegalStateException("this dictation was to be cut off before its end");
                }

                @Override
                public void cancel() {
                }
            };
        }

        @Override
        public String modelName() {
            return "toy-en";
        }
    }

    /** A source with one ready engine, which a test may swap. */
    static final class OneEngine implements SpeechEngine.Source {
        volatile SpeechEngine engine;

        OneEngine(SpeechEngine engine) {
            this.engine = engine;
        }

        @Override
        public SpeechEngine ready() {
            return engine;
        }

        @Override
        public SpeechEngine await(long millis) {
            return engine;
        }

        @Override
        public String unavailableReason() {
            return null;
        }
    }

    /**
     * The child process: starts a dictation, plays the sample into it, waits until the journal holds
     * all of it, says where the journal is and waits to be killed.
     */
    static final class DictatingUntilKilled {
        public static void main(String[] args) throws Exception {
            DictationControllerTest fixture = new DictationControllerTest();
            fixture.dir = Path.of(args[0]);
            float[] voice = AudioInput.readMono16k(Path.of(args[1]));
            SpeechEngine listening = new StubEngine("cpu", samples -> { });
            fixture.controller(new OneEngine(listening));
            if (!fixture.controller.start()) {
                throw new IllegalStateException("did not start: " + fixture.notices);
            }
            fixture.mic.play(voice);
            Path journal;
            try (Stream<Path> s = Files.list(fixture.dir.resolve("rec"))) {
                journal = s.filter(p -> p.getFileName().toString().startsWith(CaptureJournal.PREFIX)).findFirst()
                        .orElseThrow();
            }
            while (Files.size(journal) < 44 + 2L * voice.length) {
                Thread.sleep(5);
            }
            System.out.println("journal " + journal);
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
        }
    }

    /**
     * The class path the child needs: the JVM's, and where a launcher loaded the tests through a class
     * loader of its own (the GPU bundle's JUnit console launcher: its {@code java.class.path} holds only
     * the launcher), that loader's jars and folders too.
     */
    private static String childClassPath() throws Exception {
        StringBuilder cp = new StringBuilder(System.getProperty("java.class.path"));
        if (InterruptedDictationTest.class.getClassLoader() instanceof java.net.URLClassLoader loader) {
            for (java.net.URL u : loader.getURLs()) {
                cp.append(java.io.File.pathSeparator).append(Path.of(u.toURI()));
            }
        }
        return cp.toString();
    }
}
