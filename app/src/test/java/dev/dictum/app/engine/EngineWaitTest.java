package dev.dictum.app.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.app.dictation.SpeechEngine;
import dev.dictum.app.settings.TranscriptionSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The waits around a held warm-up are woken, not polled: nothing in them times out on its own (the
 * held warm-up waits without a limit), so a missed wake-up is a hang here, not a slower pass.
 */
class EngineWaitTest {
    private static final Path TOY = Path.of(System.getProperty("dictum.testdata"), "models", "toy-en", "ggml-toy-en.bin");
    private static final long LONG_MILLIS = 60_000;

    private final List<EngineManager.Phase> phases = new CopyOnWriteArrayList<>();

    private EngineManager manager() {
        EngineManager m = new EngineManager(TranscriptionSettings::defaults);
        m.addListener(new EngineManager.Listener() {
            @Override
            public void changed(EngineManager.State s) {
                phases.add(s.phase());
            }

            @Override
            public void failed(String model, String why, String stillUsing) {
            }

            @Override
            public void working(Path path) {
            }
        });
        return m;
    }

    private void awaitPhase(EngineManager.Phase p) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LONG_MILLIS);
        while (!phases.contains(p) && System.nanoTime() < until) {
            Thread.sleep(5);
        }
        assertThat(phases).contains(p);
    }

    /** A manager whose warm-up is held (as at start, before the hotkey is live), loading {@code model}. */
    private EngineManager heldLoading(Path model) {
        EngineManager m = manager();
        m.holdWarmUp();
        m.load(model, model.getFileName().toString(), "cpu");
        return m;
    }

    /** The engine {@link EngineManager#await} gives, asserted to come well before its limit. */
    private static SpeechEngine awaitWellBeforeTheLimit(EngineManager m) throws InterruptedException {
        long t0 = System.nanoTime();
        SpeechEngine e = m.await(LONG_MILLIS);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).as("woken, not at the %d ms limit",
                LONG_MILLIS).isLessThan(LONG_MILLIS / 2);
        return e;
    }

    @Test
    void aDictationWaitingDuringAHeldWarmUpGetsTheEngineWithoutTheWarmUp() throws Exception {
        try (EngineManager m = heldLoading(TOY)) {
            awaitPhase(EngineManager.Phase.WARMING_UP);
            // wakes the held loader, which skips its warm-up and says READY
            assertThat(awaitWellBeforeTheLimit(m)).as("the engine, not the timeout's null").isNotNull();
        }
    }

    @Test
    void aHeldWarmUpStartsWhenReleasedAndEndsReady() throws Exception {
        try (EngineManager m = heldLoading(TOY)) {
            awaitPhase(EngineManager.Phase.WARMING_UP);
            Thread.sleep(200);
            assertThat(m.state().phase()).as("held: no warm-up before the release").isEqualTo(EngineManager.Phase.WARMING_UP);
            m.releaseWarmUp();
            awaitPhase(EngineManager.Phase.READY);
            assertThat(m.ready()).isNotNull();
        }
    }

    @Test
    void aWaitForAnEngineThatNeverComesEndsWhenTheLoadFails() throws Exception {
        try (EngineManager m = heldLoading(TOY.resolveSibling("no-such-model.bin"))) {
            assertThat(awaitWellBeforeTheLimit(m)).isNull(); // FAILED wakes it
            assertThat(m.state().phase()).isEqualTo(EngineManager.Phase.FAILED);
        }
    }
}
