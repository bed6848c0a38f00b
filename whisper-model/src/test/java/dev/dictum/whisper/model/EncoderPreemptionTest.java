package dev.dictum.whisper.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.format.detect.ModelFiles;
import dev.dictum.whisper.session.WhisperEngine;
import dev.dictum.whisper.testutil.TestData;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A warm-up encode must yield to a real dictation within one encoder layer and leave nothing behind:
 * the encoder asks its keep-going check between layers, stops with {@link Preempted}, and the next
 * encode and transcription are bit for bit what they are without the preempted run.
 */
class EncoderPreemptionTest {
    private static final int LINEARS_PER_LAYER = 6; // q, k, v, out, MLP up, MLP down

    /** A CPU backend that counts linear ops and says no to keep-going from the given linear on. */
    private static final class CountingBackend {
        final AtomicInteger linears = new AtomicInteger();
        final AtomicBoolean wanted = new AtomicBoolean(true);
        final Backend backend;

        CountingBackend(int stopAtLinear) {
            CpuBackend cpu = new CpuBackend();
            backend = (Backend) Proxy.newProxyInstance(Backend.class.getClassLoader(), new Class<?>[] {Backend.class},
                    (proxy, method, args) -> {
                        // a linear layer is a linear call or one projection of a project call
                        int layers = method.getName().equals("linear") ? 1
                                : method.getName().equals("project") ? ((Backend.Projection[]) args[2]).length : 0;
                        for (int i = 0; i < layers; i++) {
                            if (linears.incrementAndGet() == stopAtLinear) {
                                wanted.set(false); // a dictation arrives in the middle of this layer
                            }
                        }
                        try {
                            return method.invoke(cpu, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }
    }

    @Test
    void anEncodeCalledOffMidLayerStopsWhenThatLayerEnds() throws Exception {
        // Flip in layer 2's second linear: the rest of layer 2 runs, layer 3 and the cross K/V do not.
        CountingBackend counting = new CountingBackend(LINEARS_PER_LAYER + 2);
        try (WhisperModel model = WhisperModel.load(ModelFiles.open(TestData.model("toy-en")), counting.backend)) {
            assertThat(model.dims().nAudioLayer()).isGreaterThan(2);
            float[] mel = mel();
            assertThatThrownBy(() -> model.encode(mel, model.dims().nAudioCtx(), counting.wanted::get))
                    .isInstanceOf(Preempted.class)
                    .isInstanceOf(CancellationException.class)
                    .hasMessage("preempted after encoder layer 2");
            assertThat(counting.linears.get()).isEqualTo(2 * LINEARS_PER_LAYER);
        }
    }

    @Test
    void anEncodeNotWantedAtAllRunsNothing() throws Exception {
        CountingBackend counting = new CountingBackend(Integer.MAX_VALUE);
        try (WhisperModel model = WhisperModel.load(ModelFiles.open(TestData.model("toy-en")), counting.backend)) {
            float[] mel = mel();
            assertThatThrownBy(() -> model.encode(mel, model.dims().nAudioCtx(), () -> false))
                    .isInstanceOf(Preempted.class).hasMessage("preempted before the encoder");
            assertThat(counting.linears.get()).isZero();
        }
    }

    @Test
    void aPreemptedRunLeavesTheNextEncodeAndTranscriptionByteIdentical() throws Exception {
        float[] audio = TestData.wav16kMono(TestData.data("toy-en-samples", "sample_01.wav"));
        TranscribeOptions o = TranscribeOptions.defaults();
        o = o.withDecoding(o.decoding().withWithoutTimestamps(true));
        float[] mel = mel();
        String fresh;
        float[] freshEncoding;
        try (WhisperEngine reference = WhisperEngine.load(TestData.model("toy-en"), new CpuBackend())) {
            fresh = reference.transcribe(audio, o).text();
            try (EncodedAudio e = reference.model().encode(mel)) {
                freshEncoding = e.toHost();
            }
        }
        try (WhisperEngine en = WhisperEngine.load(TestData.model("toy-en"), new CpuBackend())) {
            AtomicInteger asked = new AtomicInteger();
            int full = en.model().dims().nAudioCtx();
            // Called off after two layers, as a warm-up is when a dictation arrives.
            assertThatThrownBy(() -> en.model().encode(mel, full, () -> asked.incrementAndGet() <= 2))
                    .isInstanceOf(Preempted.class);
            assertThat(asked.get()).isEqualTo(3);
            // A shorter, preempted window too: its stale scratch rows must not leak into a full one.
            AtomicInteger asked2 = new AtomicInteger();
            assertThatThrownBy(() -> en.model().encode(mel, 256, () -> asked2.incrementAndGet() <= 3))
                    .isInstanceOf(Preempted.class);
            assertThat(en.transcribe(audio, o).text()).isEqualTo(fresh);
            try (EncodedAudio e = en.model().encode(mel)) {
                assertThat(e.toHost()).isEqualTo(freshEncoding);
            }
        }
        assertThat(fresh).contains("Sophie");
    }

    private static float[] mel() throws java.io.IOException {
        return TestData.f32(TestData.data("toy-en-oracle").resolve("sample_01.logmel.f32.bin"));
    }
}
