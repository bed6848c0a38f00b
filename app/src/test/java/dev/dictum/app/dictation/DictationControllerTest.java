package dev.dictum.app.dictation;

import dev.dictum.app.os.FocusTracker;
import dev.dictum.app.os.KeyboardState;
import dev.dictum.app.os.TargetWindow;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.app.engine.EngineManager;
import dev.dictum.app.history.HistoryEntry;
import dev.dictum.app.history.HistoryStatus;
import dev.dictum.app.history.HistoryStore;
import dev.dictum.app.settings.Settings;
import dev.dictum.app.testing.ToyEngine;
import dev.dictum.audio.AudioInput;
import dev.dictum.audio.capture.AudioSink;
import dev.dictum.audio.capture.AudioSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The loop with the real toy model, a stand-in microphone (the test plays samples into it) and a recording output. */
class DictationControllerTest {
    static final Path TESTDATA = Path.of(System.getProperty("dictum.testdata"));

    @TempDir
    Path dir;

    final FakeMic mic = new FakeMic();
    final List<String> inserted = new CopyOnWriteArrayList<>();
    final List<String> notices = new CopyOnWriteArrayList<>();
    final AtomicReference<TargetWindow> window = new AtomicReference<>(TargetWindow.UNKNOWN);
    final AtomicReference<Settings> settings = new AtomicReference<>(Settings.defaults());
    volatile long lastEdit;
    HistoryStore history;
    /** Closed while the history is "still opening" (as at start): whoever needs it waits. */
    volatile java.util.concurrent.CountDownLatch historyOpened = new java.util.concurrent.CountDownLatch(0);
    DictationController controller;

    static final class FakeMic implements AudioSource {
        volatile AudioSink sink;

        @Override
        public boolean attach(AudioSink s) {
            sink = s;
            return true;
        }

        @Override
        public void detach() {
            sink = null;
        }

        @Override
        public String problem() {
            return null;
        }

        @Override
        public String deviceName() {
            return "test mic";
        }

        /** Plays audio in 20 ms chunks, as the microphone delivers it. */
        void play(float[] audio) {
            for (int i = 0; i < audio.length; i += 320) {
                AudioSink s = sink;
                if (s != null) {
                    s.audio(Arrays.copyOfRange(audio, i, Math.min(audio.length, i + 320)));
                }
            }
        }
    }

    DictationController controller(SpeechEngine.Source engines) {
        history = HistoryStore.open(dir.resolve("history.db"));
        TextOutput out = (text, s, enter) -> {
            inserted.add(text + (enter ? "\n" : ""));
            return System.nanoTime();
        };
        controller = new DictationController(new DictationController.Parts(settings::get, mic, engines, out,
                new FocusTracker() {
                    @Override
                    public TargetWindow focused() {
                        return window.get();
                    }

                    @Override
                    public boolean refocus(TargetWindow w) {
                        return true;
                    }
                }, new KeyboardState() {
                    @Override
                    public boolean shortcutKeysHeld() {
                        return false;
                    }

                    @Override
                    public long lastEditMillis() {
                        return lastEdit;
                    }
                }, new RecordingsFolder(dir.resolve("rec")), () -> {
                    try {
                        historyOpened.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return history;
                },
                (kind, message) -> notices.add(message)));
        return controller;
    }

    @AfterEach
    void close() {
        if (controller != null) {
            controller.close();
        }
        if (history != null) {
            history.close();
        }
    }

    static EngineManager ENGINE;

    /** One toy engine for all tests: loading and warming up takes seconds. */
    @BeforeAll
    static void loadToyEngine() throws InterruptedException {
        ENGINE = ToyEngine.load();
    }

    @AfterAll
    static void closeEngine() {
        ENGINE.close();
    }

    void awaitIdle() throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (controller.status().state() != DictationState.IDLE && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        assertThat(controller.status().state()).isEqualTo(DictationState.IDLE);
    }

    @Test
    void aSpokenSampleIsInsertedExactlyAndRecorded() throws Exception {
        {
            EngineManager engines = ENGINE;
            controller(engines);
            float[] voice = AudioInput.readMono16k(TESTDATA.resolve("data/toy-en-samples/sample_01.wav"));
            float[] withPauses = new float[voice.length + 24000];
            System.arraycopy(voice, 0, withPauses, 8000, voice.length);
            assertThat(controller.start()).isTrue();
            assertThat(controller.start()).isFalse(); // no overlapping recordings
            mic.play(withPauses);
            controller.stop(true);
            awaitIdle();
            assertThat(inserted).containsExactly("Note to self, send the final version to Sophie right now.\n");
            HistoryEntry e = history.recent(1, 0).getFirst();
            assertThat(e.status()).isEqualTo(HistoryStatus.OK);
            assertThat(e.text()).isEqualTo("Note to self, send the final version to Sophie right now.");
            assertThat(e.model()).isEqualTo("toy-en");
            assertThat(e.backend()).isEqualTo("cpu");
            assertThat(e.releaseToTextMillis()).isNotNegative();
            assertThat(e.durationMillis()).isBetween(4000L * voice.length / 64000, (long) withPauses.length / 16 + 300);
            assertThat(AudioInput.readMono16k(e.wavPath())).hasSize(withPauses.length);
            assertThat(controller.lastText()).isEqualTo(e.text());
        }
    }

    @Test
    void noiseInsertsNothingAndSaysSo() throws Exception {
        {
            EngineManager engines = ENGINE;
            controller(engines);
            float[] noise = new float[16000 * 2];
            Random r = new Random(4);
            for (int i = 0; i < noise.length; i++) {
                noise[i] = (float) (0.05 * r.nextGaussian());
            }
            controller.start();
            mic.play(noise);
            controller.stop(false);
            awaitIdle();
            assertThat(inserted).isEmpty();
            assertThat(notices).contains("No speech heard: nothing inserted");
            assertThat(history.recent(1, 0).getFirst().status()).isEqualTo(HistoryStatus.EMPTY);
        }
    }

    @Test
    void aFailedTranscriptionKeepsItsWavAndARetryInsertsTheText() throws Exception {
        {
            EngineManager real = ENGINE;
            // The first session fails as a GPU fault or a broken model would; the retry uses the real engine.
            SpeechEngine.Source failingOnce = new SpeechEngine.Source() {
                boolean failed;

                @Override
                public SpeechEngine ready() {
                    SpeechEngine e = real.ready();
                    if (failed) {
                        return e;
                    }
                    failed = true;
                    return new SpeechEngine() {
                        @Override
                        public Dictation start() {
                            return new Dictation() {
                                @Override
                                public void feed(float[] samples) {
                                }

                                @Override
                                public Transcript finish() {
                                    throw new IllegalStateException("device fault");
                                }

                                @Override
                                public void cancel() {
                                }
                            };
                        }

                        @Override
                        public String modelName() {
                            return e.modelName();
                        }

                        @Override
                        public String backendName() {
                            return e.backendName();
                        }
                    };
                }

                @Override
                public SpeechEngine await(long millis) {
                    return ready();
                }

                @Override
                public String unavailableReason() {
                    return null;
                }
            };
            controller(failingOnce);
            float[] voice = AudioInput.readMono16k(TESTDATA.resolve("data/toy-en-samples/sample_03.wav"));
            controller.start();
            mic.play(voice);
            controller.stop(false);
            awaitIdle();
            assertThat(inserted).isEmpty();
            HistoryEntry failed = history.recent(1, 0).getFirst();
            assertThat(failed.status()).isEqualTo(HistoryStatus.FAILED);
            assertThat(failed.error()).isEqualTo("device fault");
            assertThat(Files.exists(failed.wavPath())).isTrue();
            assertThat(AudioInput.readMono16k(failed.wavPath())).hasSize(voice.length);
            assertThat(controller.status().retryAvailable()).isTrue();
            assertThat(notices).anySatisfy(n -> assertThat(n).contains("Transcription failed (device fault)")
                    .contains("Retry"));

            controller.retryFailed();
            awaitIdle();
            assertThat(inserted).containsExactly("We are out of cheese and tea.");
            assertThat(history.get(failed.id()).orElseThrow().status()).isEqualTo(HistoryStatus.OK);
            assertThat(controller.status().retryAvailable()).isFalse();
        }
    }

    @Test
    void tooShortCancelAndDeviceLossEachEndOneWay() throws Exception {
        {
            EngineManager engines = ENGINE;
            controller(engines);
            float[] voice = AudioInput.readMono16k(TESTDATA.resolve("data/toy-en-samples/sample_02.wav"));
            controller.start();
            controller.stop(false); // released at once
            awaitIdle();
            assertThat(notices).containsExactly("Too short: hold the hotkey while you speak");

            // Cancel: nothing inserted, the recording kept as "cancelled" (to transcribe again from the history).
            controller.start();
            mic.play(Arrays.copyOf(voice, 16000));
            assertThat(controller.cancel()).isTrue();
            awaitIdle();
            assertThat(notices).last().isEqualTo("Recording cancelled: nothing inserted");
            HistoryEntry cancelled = history.recent(1, 0).getFirst();
            assertThat(cancelled.status()).isEqualTo(HistoryStatus.CANCELLED);
            assertThat(AudioInput.readMono16k(cancelled.wavPath())).hasSize(16000);

            // The microphone goes away before the release: what came after is not the user's voice.
            controller.start();
            mic.play(voice);
            mic.sink.deviceLost("device unplugged");
            awaitIdle();
            controller.stop(false); // the release that comes later does nothing
            assertThat(notices).anySatisfy(n -> assertThat(n)
                    .isEqualTo("Microphone \"test mic\" lost: nothing inserted; the recording is kept in History"));
            assertThat(history.recent(1, 0).getFirst().error()).isEqualTo("microphone lost: device unplugged");
            assertThat(inserted).isEmpty();
            HistoryEntry lost = history.recent(1, 0).getFirst();
            assertThat(lost.status()).isEqualTo(HistoryStatus.FAILED);
            assertThat(AudioInput.readMono16k(lost.wavPath())).hasSize(voice.length);
            assertThat(history.count()).isEqualTo(2);
            try (var files = Files.list(dir.resolve("rec"))) {
                assertThat(files.count()).isEqualTo(2); // too short leaves no WAV
            }
            // The kept audio is transcribed on request (the tray's Retry), and only then inserted.
            assertThat(controller.status().retryAvailable()).isTrue();
            controller.retryFailed();
            awaitIdle();
            assertThat(inserted).containsExactly("Tell Mark that I will be 9 minutes late.");
        }
    }

    @Test
    void spamLeavesNoStuckStateAndNothingOverlaps() throws Exception {
        {
            EngineManager engines = ENGINE;
            controller(engines);
            List<Boolean> starts = new ArrayList<>();
            for (int i = 0; i < 20 * 60; i++) { // 20 presses a second for a minute, without the waiting
                starts.add(controller.start());
                mic.play(new float[160]);
                controller.stop(false);
            }
            awaitIdle();
            assertThat(starts).containsOnly(true);
            assertThat(inserted).isEmpty();
            assertThat(notices).hasSize(20 * 60).containsOnly("Too short: hold the hotkey while you speak");
            assertThat(controller.recording()).isFalse();
        }
    }

    @Test
    void leadingSpaceOnlyAfterASentenceInTheSameWindow() throws Exception {
        controller(ENGINE);
        float[] a = AudioInput.readMono16k(TESTDATA.resolve("data/toy-en-samples/sample_03.wav"));
        float[] b = AudioInput.readMono16k(TESTDATA.resolve("data/toy-en-samples/sample_02.wav"));
        window.set(new TargetWindow(7, "editor"));
        for (float[] voice : List.of(a, b)) {
            controller.start();
            mic.play(voice);
            controller.stop(false);
            awaitIdle();
        }
        window.set(new TargetWindow(8, "terminal"));
        controller.start();
        mic.play(a);
        controller.stop(false);
        awaitIdle();
        // Back in the editor, the user clears the field (Ctrl+A, Backspace) before dictating again.
        window.set(new TargetWindow(7, "editor"));
        controller.start();
        mic.play(b);
        controller.stop(false);
        awaitIdle();
        Thread.sleep(LeadingSpace.OWN_KEYS_MILLIS + 50);
        lastEdit = System.currentTimeMillis();
        controller.start();
        mic.play(a);
        controller.stop(false);
        awaitIdle();
        assertThat(inserted).containsExactly("We are out of cheese and tea.",
                " Tell Mark that I will be 9 minutes late.", "We are out of cheese and tea.",
                "Tell Mark that I will be 9 minutes late.", "We are out of cheese and tea.");
    }
}
