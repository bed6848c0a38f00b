package dev.dictum.whisper.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dictum.gpu.select.Backends;
import dev.dictum.gpu.backend.GpuBackend;
import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.gpu.device.GpuDriver;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.session.WhisperEngine;
import dev.dictum.whisper.testutil.TestData;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a whole transcription asks of the driver, recorded call by call: the two lessons of the seed
 * notes that no single-op test can show. Seed 001: one stream for everything — a copy on the default
 * stream while kernels ran on a custom one hung an engine. Seed 002: no tensor comes back through the
 * host — a 519 MB weight transposed on the host failed; weights must be converted on the device.
 */
class GpuTrafficTest {

    /** Every driver call with its arguments, in order; the real driver does the work. */
    private static final class Recorder implements InvocationHandler {
        final GpuDriver real;
        final List<Object[]> calls = new CopyOnWriteArrayList<>();
        final Set<Long> streams = ConcurrentHashMap.newKeySet();
        final Map<String, Integer> streamArg = Map.of("copyHostToDeviceAsync", 3, "copyDeviceToHostAsync", 3,
                "copyDeviceToDeviceAsync", 3, "memsetD32Async", 3, "streamSynchronize", 0, "launch", 8,
                "streamBeginCapture", 0, "streamEndCapture", 0, "graphLaunch", 1);

        Recorder(GpuDriver real) {
            this.real = real;
        }

        @Override
        public Object invoke(Object proxy, Method m, Object[] args) throws Throwable {
            Object[] a = args == null ? new Object[0] : args;
            Object[] entry = new Object[a.length + 1];
            entry[0] = m.getName();
            System.arraycopy(a, 0, entry, 1, a.length);
            calls.add(entry);
            try {
                Object r = m.invoke(real, a);
                if (m.getName().equals("streamCreate")) {
                    streams.add((Long) r);
                }
                return r;
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        int mark() {
            return calls.size();
        }

        List<Object[]> since(int mark) {
            return calls.subList(mark, calls.size());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cuda", "hip"})
    void aTranscriptionUsesOneStreamAndNoWeightComesBackToTheHost(String api) throws Exception {
        GpuBackend probe;
        try {
            probe = Backends.openGpu(api);
        } catch (IllegalArgumentException e) {
            assumeTrue(false, "skipped: no GPU (" + e.getMessage() + ")");
            return;
        }
        GpuDriver realDriver = probe.driver();
        probe.close();
        Path model = TestData.model("toy-en/ggml-toy-en-q8_0.bin");
        Path wav = TestData.data("toy-en-samples", "sample_01.wav");
        assumeTrue(Files.isRegularFile(model) && Files.isRegularFile(wav), "skipped: toy-en q8_0 is missing");
        float[] audio = TestData.wav16kMono(wav);
        String want;
        try (WhisperEngine cpu = WhisperEngine.load(model, new CpuBackend())) {
            want = cpu.transcribe(audio, TranscribeOptions.defaults()).strippedText();
        }

        Recorder rec = new Recorder(realDriver);
        GpuDriver recording = (GpuDriver) Proxy.newProxyInstance(GpuDriver.class.getClassLoader(),
                new Class<?>[] {GpuDriver.class}, rec);
        GpuBackend gpu = new GpuBackend(recording, 0);
        int beforeLoad = rec.mark();
        try (WhisperEngine e = WhisperEngine.load(model, gpu)) {
            List<Object[]> load = List.copyOf(rec.since(beforeLoad));
            int beforeRun = rec.mark();
            assertThat(e.transcribe(audio, TranscribeOptions.defaults()).strippedText()).isEqualTo(want);
            List<Object[]> run = List.copyOf(rec.since(beforeRun));
            int vocab = e.model().dims().nVocab();

            // Seed 001: exactly one stream, and every launch, copy, fill and wait names it.
            assertThat(rec.streams).as("streams created").hasSize(1);
            long stream = rec.streams.iterator().next();
            assertThat(stream).as("the stream is not the default (null) stream").isNotZero();
            int checked = 0;
            for (Object[] c : rec.calls) {
                Integer at = rec.streamArg.get((String) c[0]);
                if (at != null) {
                    assertThat((Long) c[1 + at]).as("stream of %s", c[0]).isEqualTo(stream);
                    checked++;
                }
            }
            // (Fewer than before graphs: each greedy decoder step is one graph launch on CUDA.)
            assertThat(checked).as("stream-ordered calls seen").isGreaterThan(200);
            assertThat(run.stream().filter(c -> c[0].equals("graphLaunch")).count())
                    .as("decoder steps replayed as graphs").matches(n -> api.equals("cuda") ? n > 0 : n == 0);
            assertThat(run.stream().map(c -> (String) c[0]))
                    .as("no device-wide synchronisation while transcribing").doesNotContain("deviceSynchronize");

            // Seed 002: loading puts every weight on the device and brings nothing back.
            assertThat(load.stream().filter(c -> c[0].equals("copyDeviceToHostAsync")))
                    .as("device-to-host copies while loading the model").isEmpty();
            long uploaded = load.stream().filter(c -> c[0].equals("copyHostToDeviceAsync"))
                    .mapToLong(c -> (Long) c[3]).sum();
            assertThat(uploaded).as("bytes uploaded at load: the file's tensors, about once")
                    .isGreaterThan(Files.size(model) / 2).isLessThan(Files.size(model) * 2);
            // While transcribing only logits (a few rows of n_vocab floats) or less come back.
            long largest = run.stream().filter(c -> c[0].equals("copyDeviceToHostAsync"))
                    .mapToLong(c -> (Long) c[3]).max().orElse(0);
            assertThat(largest).as("largest device-to-host copy while transcribing")
                    .isPositive().isLessThanOrEqualTo(8L * vocab * Float.BYTES);
        }
    }
}
