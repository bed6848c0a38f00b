package dev.dictum.app.hotkey;

import dev.dictum.app.os.Grab;
import dev.dictum.app.os.KeyGrabs;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.app.dictation.DictationController;
import dev.dictum.app.dictation.RecordingsFolder;
import dev.dictum.app.dictation.SpeechEngine;
import dev.dictum.app.os.FocusTracker;
import dev.dictum.app.os.KeyboardState;
import dev.dictum.app.settings.Settings;
import dev.dictum.audio.capture.AudioSink;
import dev.dictum.audio.capture.AudioSource;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The grabs follow the controller: Escape and stop-and-Enter are the app's only while it records. */
class GlobalHotkeysGrabTest {
    @TempDir
    Path dir;

    /** Holds what it is told, except what "another program" holds. */
    static final class FakeGrabs implements KeyGrabs {
        volatile Set<Grab> held = Set.of();
        final Set<String> taken;

        FakeGrabs(Set<String> takenByOthers) {
            this.taken = takenByOthers;
        }

        @Override
        public Map<Grab, String> hold(Set<Grab> grabs) {
            held = grabs.stream().filter(g -> !taken.contains(g.exact().toString())).collect(Collectors.toSet());
            return grabs.stream().filter(g -> taken.contains(g.exact().toString()))
                    .collect(Collectors.toMap(g -> g, g -> "another program holds it"));
        }

        Set<String> names() {
            return held.stream().map(Grab::toString).collect(Collectors.toSet());
        }

        @Override
        public void close() {
        }
    }

    DictationController controller() {
        AudioSource mic = new AudioSource() {
            @Override
            public boolean attach(AudioSink sink) {
                return true;
            }

            @Override
            public void detach() {
            }

            @Override
            public String problem() {
                return null;
            }
        };
        SpeechEngine.Source loading = new SpeechEngine.Source() {
            @Override
            public SpeechEngine ready() {
                return null;
            }

            @Override
            public SpeechEngine await(long millis) {
                return null;
            }

            @Override
            public String unavailableReason() {
                return "Loading toy-en…"; // a recording may start while the model loads
            }
        };
        return new DictationController(new DictationController.Parts(Settings::defaults, mic, loading,
                (text, s, enter) -> System.nanoTime(), FocusTracker.NONE, KeyboardState.NONE,
                new RecordingsFolder(dir.resolve("rec")), () -> null, (kind, message) -> { }));
    }

    /**
     * Counts the controller's status changes. Listeners are told in order on the controller's listener
     * thread, so once this one (added after GlobalHotkeys) has seen the n-th change, so has GlobalHotkeys.
     */
    static final class Changes implements DictationController.Listener {
        private final java.util.concurrent.Semaphore seen = new java.util.concurrent.Semaphore(0);

        @Override
        public void changed(DictationController.Status status) {
            seen.release();
        }

        void await(int changes) throws InterruptedException {
            assertThat(seen.tryAcquire(changes, 5, java.util.concurrent.TimeUnit.SECONDS))
                    .as("%d status changes told to the listeners", changes).isTrue();
        }

        /** At least {@code changes}, then none for 300 ms: the worker's late changes told too. */
        void awaitQuiet(int changes) throws InterruptedException {
            await(changes);
            while (seen.tryAcquire(300, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                seen.drainPermits();
            }
        }
    }

    @Test
    void escapeAndStopAndEnterAreHeldOnlyWhileRecording() throws InterruptedException {
        FakeGrabs grabs = new FakeGrabs(Set.of());
        try (DictationController c = controller()) {
            new GlobalHotkeys(c, Settings.defaults().hotkeys(), grabs, p -> { });
            Changes changes = new Changes();
            c.addListener(changes);
            assertThat(grabs.names()).containsExactlyInAnyOrder("Ctrl+Alt+Space", "Ctrl+Alt+V");
            assertThat(c.start()).isTrue();
            changes.await(1);
            assertThat(grabs.names()).containsExactlyInAnyOrder("Ctrl+Alt+Space", "Ctrl+Alt+V",
                    "Escape (with any modifiers)", "Ctrl+Alt+Enter");
            c.cancel();
            changes.await(1);
            assertThat(grabs.names()).containsExactlyInAnyOrder("Ctrl+Alt+Space", "Ctrl+Alt+V");
        }
    }

    @Test
    void aCombinationAnotherProgramHoldsIsToldOnceNotAtEveryRecording() throws InterruptedException {
        FakeGrabs grabs = new FakeGrabs(Set.of("Escape"));
        List<String> problems = new CopyOnWriteArrayList<>();
        try (DictationController c = controller()) {
            new GlobalHotkeys(c, Settings.defaults().hotkeys(), grabs, problems::add);
            Changes changes = new Changes();
            c.addListener(changes);
            for (int i = 0; i < 3; i++) {
                c.start();
                changes.await(1); // the grabs follow the recording as the listeners are told it
                c.cancel();
                changes.awaitQuiet(1); // idle, and the worker's changes for the kept recording
            }
            assertThat(problems).containsExactly(
                    "Escape also reaches other windows: another program holds it (choose another hotkey in Settings)");
        }
    }
    /**
     * The grabs are X round trips made on the listener thread when a recording starts or ends (3-10 ms
     * at a release on Xvfb). Made under the hotkeys' lock, they held up the hook's thread and the paste's
     * question whether the hotkey's keys are up (session 15: "modifiers up after 10.7 ms").
     */
    @Test
    void aGrabInFlightDoesNotHoldUpTheKeyboardState() throws Exception {
        java.util.concurrent.CountDownLatch inHold = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch letGo = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        KeyGrabs slow = new KeyGrabs() {
            @Override
            public Map<Grab, String> hold(Set<Grab> grabs) {
                if (calls.incrementAndGet() == 2) { // the recording's: the first was the constructor's
                    inHold.countDown();
                    try {
                        letGo.await(10, java.util.concurrent.TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return Map.of();
            }

            @Override
            public void close() {
            }
        };
        KeyboardWatch keyboard = new KeyboardWatch();
        try (DictationController c = controller()) {
            new GlobalHotkeys(c, Settings.defaults().hotkeys(), slow, keyboard, p -> { });
            assertThat(c.start()).isTrue();
            assertThat(inHold.await(5, java.util.concurrent.TimeUnit.SECONDS)).as("the recording's grab began").isTrue();
            java.util.concurrent.CompletableFuture<Boolean> held =
                    java.util.concurrent.CompletableFuture.supplyAsync(keyboard::shortcutKeysHeld);
            assertThat(held.get(2, java.util.concurrent.TimeUnit.SECONDS)).as("no key is held").isFalse();
            letGo.countDown();
            c.cancel();
        } finally {
            letGo.countDown();
        }
    }
}
