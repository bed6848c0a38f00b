package dev.dictum.whisper.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.StepGraph;
import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.format.detect.ModelFiles;
import dev.dictum.whisper.testutil.GgmlWriter;
import dev.dictum.whisper.testutil.TinyWhisper;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The decoder's step graph and its capture-replay-compare self-test, without a GPU: the CPU backend
 * behind a proxy whose {@code capture} hands out a graph that works, replays nothing, or cannot be
 * captured. Whatever the graph does, the logits of every step are the plain CPU's bit for bit; a
 * graph that fails its check is refused once and never replayed again.
 */
class StepGraphFallbackTest {
    private static final long SEED = 7;

    enum Graphs { NONE, FAITHFUL, REPLAYS_NOTHING, CAPTURE_THROWS, REPLAY_THROWS }

    @TempDir
    Path tmp;

    /** The CPU backend with graphs as {@code kind} has them; counts replays and refusals. */
    private static final class Fake {
        final AtomicInteger replays = new AtomicInteger();
        final List<String> refusals = new ArrayList<>();
        final Backend backend;

        Fake(Graphs kind) {
            CpuBackend cpu = new CpuBackend();
            backend = (Backend) Proxy.newProxyInstance(Backend.class.getClassLoader(), new Class<?>[] {Backend.class},
                    (proxy, m, args) -> {
                        if (m.getName().equals("capture") && kind != Graphs.NONE) {
                            return capture(kind, (Runnable) args[0]);
                        }
                        if (m.getName().equals("refuseGraphs")) {
                            refusals.add((String) args[0]);
                            return null;
                        }
                        try {
                            return m.invoke(cpu, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }

        private StepGraph capture(Graphs kind, Runnable step) {
            if (kind == Graphs.CAPTURE_THROWS) {
                throw new IllegalStateException("cuStreamEndCapture failed (test)");
            }
            return new StepGraph() {
                @Override
                public void replay() {
                    replays.incrementAndGet();
                    switch (kind) {
                        case FAITHFUL -> step.run();
                        case REPLAY_THROWS -> throw new IllegalStateException("cuGraphLaunch failed (test)");
                        default -> {
                        }
                    }
                }

                @Override
                public void close() {
                }
            };
        }
    }

    /** Logits of a prompt of two tokens, then greedy steps to the end of the text context. */
    private List<float[]> decode(Backend be, Path file) {
        List<float[]> out = new ArrayList<>();
        try (WhisperModel m = WhisperModel.load(ModelFiles.open(file), be)) {
            WhisperDims d = m.dims();
            try (EncodedAudio audio = m.encode(GreedySteps.randomMel(d, SEED)); DecoderState dec = m.newDecoder(1)) {
                for (int attempt = 0; attempt < 2; attempt++) { // a second decode of the same window
                    out.addAll(GreedySteps.logits(dec, audio, d));
                }
            }
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(Graphs.class)
    void everyStepGivesTheEagerLogitsWhateverTheGraphDoes(Graphs kind) {
        Path file = GgmlWriter.write(tmp.resolve("m.bin"), TinyWhisper.EN, SEED, GgmlWriter.Type.F16).file();
        List<float[]> want = decode(new CpuBackend(), file);
        Fake fake = new Fake(kind);
        List<float[]> got = decode(fake.backend, file);

        assertThat(got).hasSameSizeAs(want);
        for (int i = 0; i < want.size(); i++) {
            assertThat(got.get(i)).as("logits of step %d", i).containsExactly(want.get(i));
        }
        int steps = 2 * (TinyWhisper.EN.nTextCtx() - 2);
        switch (kind) {
            case NONE -> assertThat(fake.replays).hasValue(0);
            // The first step runs eagerly and is captured; its check replays it once; every later step replays.
            case FAITHFUL -> {
                assertThat(fake.replays).hasValue(steps);
                assertThat(fake.refusals).isEmpty();
            }
            case REPLAYS_NOTHING -> {
                assertThat(fake.replays).as("only the check replayed").hasValue(1);
                assertThat(fake.refusals).singleElement().asString().contains("differ");
            }
            case REPLAY_THROWS -> {
                assertThat(fake.replays).hasValue(1);
                assertThat(fake.refusals).singleElement().asString().contains("cuGraphLaunch");
            }
            case CAPTURE_THROWS -> {
                assertThat(fake.replays).hasValue(0);
                assertThat(fake.refusals).singleElement().asString().contains("cuStreamEndCapture");
            }
        }
    }
}
