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

    @Test
    void escapeAndStopAndEnterAreHeldOnlyWhileRecording() {
        FakeGrabs grabs = new FakeGrabs(Set.of());
        try (DictationController c = controller()) {
            new GlobalHotkeys(c, Settings.defaults().hotkeys(), grabs, p -> { });
            assertThat(grabs.names()).containsExactlyInAnyOrder("Ctrl+Alt+Space", "Ctrl+Alt+V");
            assertThat(c.start()).isTrue();
            assertThat(grabs.names()).containsExactlyInAnyOrder("Ctrl+Alt+Space", "Ctrl+Alt+V",
                    "Escape (with any modifiers)", "Ctrl+Alt+Enter");
            c.cancel();
            assertThat(grabs.names()).containsExactlyInAnyOrder("Ctrl+Alt+Space", "Ctrl+Alt+V");
        }
    }

    @Test
    void aCombinationAnotherProgramHoldsIsToldOnceNotAtEveryRecording() {
        FakeGrabs grabs = new FakeGrabs(Set.of("Escape"));
        List<String> problems = new CopyOnWriteArrayList<>();
        try (DictationController c = controller()) {
            new GlobalHotkeys(c, Settings.defaults().hotkeys(), grabs, problems::add);
            for (int i = 0; i < 3; i++) {
                c.start();
                c.cancel();
            }
            assertThat(problems).containsExactly(
                    "Escape also reaches other windows: another program holds it (choose another hotkey in Settings)");
        }
    }
}
