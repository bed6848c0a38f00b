package dev.dictum.app.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.app.settings.TranscriptionSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A model that fails to load is never announced as working (so never remembered), and the last working one keeps serving. */
class EngineManagerChoiceTest {
    private static final Path TOY = Path.of(System.getProperty("dictum.testdata"), "models", "toy-en", "ggml-toy-en.bin");

    @TempDir
    Path dir;

    private final List<String> events = new CopyOnWriteArrayList<>();

    private EngineManager manager() {
        EngineManager m = new EngineManager(TranscriptionSettings::defaults);
        m.addListener(new EngineManager.Listener() {
            @Override
            public void changed(EngineManager.State s) {
                events.add(s.phase().name());
            }

            @Override
            public void failed(String model, String why, String stillUsing) {
                events.add("failed " + model + " (" + why + ") still " + stillUsing);
            }

            @Override
            public void working(Path path) {
                events.add("working " + path.getFileName());
            }
        });
        return m;
    }

    private static void settle(EngineManager m) throws InterruptedException {
        long until = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < until) {
            EngineManager.Phase p = m.state().phase();
            if (p == EngineManager.Phase.READY || p == EngineManager.Phase.FAILED) {
                return;
            }
            Thread.sleep(20);
        }
    }

    /** The state is set before the listeners hear why (one may load another model at once): wait for them. */
    private void heard(String prefix) throws InterruptedException {
        long until = System.nanoTime() + 5_000_000_000L;
        while (events.stream().noneMatch(e -> e.startsWith(prefix)) && System.nanoTime() < until) {
            Thread.sleep(10);
        }
    }

    @Test
    void aCorruptModelIsNotTheChoiceAndTheWorkingOneStaysReady() throws Exception {
        Path corrupt = dir.resolve("ggml-broken.bin");
        Files.write(corrupt, new byte[] {'l', 'm', 'g', 'g', 1, 2, 3});
        try (EngineManager m = manager()) {
            m.load(TOY, "toy-en", "cpu");
            settle(m);
            heard("working");
            assertThat(events).contains("working ggml-toy-en.bin");
            events.clear();

            m.load(corrupt, "broken", "cpu");
            Thread.sleep(50);
            settle(m);
            heard("failed");
            assertThat(events).noneMatch(e -> e.startsWith("working"));
            assertThat(events).anyMatch(e -> e.startsWith("failed broken (") && e.endsWith("still toy-en"));
            assertThat(m.state().phase()).as("the tray must not show a failure while toy-en serves")
                    .isEqualTo(EngineManager.Phase.READY);
            assertThat(m.state().model()).isEqualTo("toy-en");
            assertThat(m.readyPath()).isEqualTo(TOY);
            assertThat(m.ready()).isNotNull();
        }
    }

    @Test
    void withNoWorkingModelAFailureIsShownAndNothingIsReady() throws Exception {
        Path corrupt = dir.resolve("ggml-broken.bin");
        Files.writeString(corrupt, "not a model");
        try (EngineManager m = manager()) {
            m.load(corrupt, "broken", "cpu");
            Thread.sleep(50);
            settle(m);
            assertThat(events).noneMatch(e -> e.startsWith("working"));
            assertThat(m.state().phase()).isEqualTo(EngineManager.Phase.FAILED);
            assertThat(m.ready()).isNull();
            assertThat(m.unavailableReason()).startsWith("The model could not be loaded: ");
        }
    }
}
