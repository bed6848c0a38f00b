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

    @Test
    void aDictationWaitingDuringAHeldWarmUpGetsTheEngineWithoutTheWarmUp() throws Exception {
        EngineManager m = manager();
        try {
            m.holdWarmUp();
            m.load(TOY, "toy-en", "cpu");
            awaitPhase(EngineManager.Phase.WARMING_UP);
            long t0 = System.nanoTime();
            SpeechEngine e = m.await(LONG_MILLIS); // wakes the held loader, which skips its warm-up
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertThat(e).as("the engine, not the timeout's null").isNotNull();
            assertThat(waited).as("returned when ready, not at the %d ms limit", LONG_MILLIS).isLessThan(LONG_MILLIS / 2);
        } finally {
            m.close();
        }
    }

    @Test
    void aHeldWarmUpStartsWhenReleasedAndEndsReady() throws Exception {
        EngineManager m = manager();
        try {
            m.holdWarmUp();
            m.load(TOY, "toy-en", "cpu");
            awaitPhase(EngineManager.Phase.WARMING_UP);
            Thread.sleep(200);
            assertThat(m.state().phase()).as("held: no warm-up before the release").isEqualTo(EngineManager.Phase.WARMING_UP);
            m.releaseWarmUp();
            awaitPhase(EngineManager.Phase.READY);
            assertThat(m.ready()).isNotNull();
        } finally {
            m.close();
        }
    }

    @Test
    void aWaitForAnEngineThatNeverComesEndsAtItsLimit() throws Exception {
        EngineManager m = manager();
        try {
            m.holdWarmUp();
            m.load(TOY.resolveSibling("no-such-model.bin"), "missing", "cpu");
            long t0 = System.nanoTime();
            SpeechEngine e = m.await(LONG_MILLIS); // FAILED wakes it
            assertThat(e).isNull();
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isLessThan(LONG_MILLIS / 2);
            assertThat(m.state().phase()).isEqualTo(EngineManager.Phase.FAILED);
        } finally {
            m.close();
        }
    }
}
