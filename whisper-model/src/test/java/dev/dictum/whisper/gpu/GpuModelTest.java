package dev.dictum.whisper.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.select.Backends;
import dev.dictum.gpu.DType;
import dev.dictum.gpu.backend.GpuBackend;
import dev.dictum.gpu.backend.GpuHealth;
import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.gpu.device.Device;
import dev.dictum.gpu.device.DeviceBuffer;
import dev.dictum.gpu.device.FaultInjectingDriver;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.mel.LogMel;
import dev.dictum.whisper.model.DecoderState;
import dev.dictum.whisper.model.EncodedAudio;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.session.EngineBenchmark;
import dev.dictum.whisper.session.WhisperEngine;
import dev.dictum.whisper.testutil.HalfKvCpu;
import dev.dictum.whisper.testutil.SafetensorsWriter;
import dev.dictum.whisper.testutil.RandomWhisper;
import dev.dictum.whisper.testutil.TestData;
import dev.dictum.whisper.tokenizer.SpecialTokens;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The whole model on the GPU: random models of large-v3 and large-v3-turbo dimensions over 30 s
 * of audio against the CPU, and what happens when the GPU fails or is too small.
 */
class GpuModelTest {
    private static final long SEED = 20261123;

    @TempDir
    Path tmp;

    /** GPU backends usable here (after their self-test), or the test is skipped. */
    private static List<GpuBackend> gpus() {
        List<GpuBackend> out = new ArrayList<>();
        List<String> why = new ArrayList<>();
        for (String api : List.of("cuda", "hip")) {
            try {
                out.add(Backends.openGpu(api));
            } catch (IllegalArgumentException e) {
                why.add(e.getMessage());
            }
        }
        assumeTrue(!out.isEmpty(), "skipped: no GPU (" + String.join("; ", why) + ")");
        return out;
    }

    /** The GPU backend of {@code api}, or the test is skipped ("skipped: no GPU"). */
    static GpuBackend gpu(String api) {
        try {
            return Backends.openGpu(api);
        } catch (IllegalArgumentException e) {
            assumeTrue(false, "skipped: no GPU (" + e.getMessage() + ")");
            throw e;
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"large-v3", "large-v3-turbo"})
    void randomLargeModelsGiveTheCpusEncoderOutputAndFirstLogits(String size) throws IOException {
        List<GpuBackend> gpus = gpus();
        WhisperDims dims = size.equals("large-v3") ? RandomWhisper.LARGE_V3 : RandomWhisper.LARGE_V3_TURBO;
        // Hugging Face layout in f16: the same weights for both backends, converted on neither.
        Path model = SafetensorsWriter.writeModel(tmp.resolve(size), dims, SEED, DType.F16);
        float[] audio = EngineBenchmark.syntheticAudio(30);
        // The CPU storing the cross K/V in f16 as the GPU does (issue 22): the GPU is held to the model it
        // runs; what the f16 storage itself moves is HalfKvTest's and the kernels' tests' (3e-4 of an
        // attention output, 6e-5 of toy-en's first logits).
        float[][] cpu = encodeAndFirstLogits(model, HalfKvCpu.create(), audio);
        for (GpuBackend g : gpus) {
            String name = g.name();
            float[][] gpu = encodeAndFirstLogits(model, g, audio);
            double encErr = TestData.relativeError(gpu[0], cpu[0]);
            double logitErr = TestData.relativeError(gpu[1], cpu[1]);
            System.out.printf("%s on %s: encoder rel err %.2e, first logits rel err %.2e%n", size, name, encErr,
                    logitErr);
            assertThat(encErr).as("encoder output, %s", name).isLessThanOrEqualTo(1e-3);
            assertThat(logitErr).as("first logits, %s", name).isLessThanOrEqualTo(1e-3);
        }
        try (var files = Files.walk(model)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }

    private static float[][] encodeAndFirstLogits(Path model, Backend backend, float[] audio) {
        try (WhisperEngine e = WhisperEngine.load(model, backend);
                EncodedAudio enc = e.model().encode(new LogMel(e.model().dims().nMels()).window(audio));
                DecoderState state = e.model().newDecoder(1)) {
            assertThat(e.model().backend()).isSameAs(backend);
            SpecialTokens s = e.model().vocabulary().specials();
            state.reset(enc, 1);
            float[][] logits = new float[1][e.model().dims().nVocab()];
            state.feed(new int[][] {{s.sot(), s.firstLanguage(), s.transcribe(), s.noTimestamps()}}, logits);
            return new float[][] {enc.toHost(), logits[0]};
        }
    }

    /** The toy model's q8_0 file and one sample that the bundle carries (toy-en or toy-multi). */
    private static Path[] toySample() {
        for (String[] c : new String[][] {{"toy-en/ggml-toy-en-q8_0.bin", "toy-en-samples", "sample_01.wav"},
            {"toy-multi/ggml-toy-multi-q8_0.bin", "toy-multi-samples", "sample_en_1.wav"}}) {
            Path m = TestData.model(c[0]);
            Path w = TestData.data(c[1], c[2]);
            if (Files.isRegularFile(m) && Files.isRegularFile(w)) {
                return new Path[] {m, w};
            }
        }
        assumeTrue(false, "skipped: no toy model in " + TestData.root());
        return null;
    }

    private static String transcribe(WhisperEngine e, float[] audio) {
        return e.transcribe(audio, TranscribeOptions.defaults()).strippedText();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cuda", "hip"})
    void aDeviceFailureMidTranscriptionFinishesOnTheCpuAndTheGpuComesBackAfterItsSelfTest(String api)
            throws IOException {
        GpuBackend real = gpu(api);
        Path[] toy = toySample();
        float[] audio = TestData.wav16kMono(toy[1]);
        String want;
        try (WhisperEngine cpu = WhisperEngine.load(toy[0], new CpuBackend())) {
            want = transcribe(cpu, audio);
        }
        FaultInjectingDriver faulty = new FaultInjectingDriver(real.driver(), "launch", Integer.MAX_VALUE);
        real.close();
        GpuBackend gpu = new GpuBackend(faulty, 0);
        try (WhisperEngine e = WhisperEngine.load(toy[0], gpu)) {
            faulty.failAfter(40); // in the encoder of the first window, after the model is on the device
            assertThat(transcribe(e, audio)).isEqualTo(want);
            assertThat(faulty.fired()).isTrue();
            assertThat(GpuHealth.needsSelfTest(gpu.name())).isTrue();
            int launches = faulty.calls();
            // The next transcription self-tests the GPU (the fault was one-shot), then runs on it.
            assertThat(transcribe(e, audio)).isEqualTo(want);
            assertThat(GpuHealth.needsSelfTest(gpu.name())).isFalse();
            assertThat(faulty.calls()).as("kernels launched on the GPU again").isGreaterThan(launches + 100);
        }
    }

    @Test
    void aModelThatDoesNotFitIsRefusedUpFrontAndRunsOnTheCpu() throws IOException {
        List<GpuBackend> gpus = gpus();
        Path[] toy = toySample();
        float[] audio = TestData.wav16kMono(toy[1]);
        String want;
        try (WhisperEngine cpu = WhisperEngine.load(toy[0], new CpuBackend())) {
            want = transcribe(cpu, audio);
        }
        for (GpuBackend gpu : gpus) {
            Device device = new Device(gpu.driver(), 0);
            long free = device.memoryInfo()[0];
            // Take the card's memory for real, leaving 32 MiB: less than the toy model needs.
            List<DeviceBuffer> hog = new ArrayList<>();
            try {
                long left = free - (32L << 20);
                while (left > 0) {
                    long chunk = Math.min(left, 4L << 30);
                    hog.add(device.allocate(chunk));
                    left -= chunk;
                }
                try (WhisperEngine e = WhisperEngine.load(toy[0], gpu)) {
                    assertThat(e.model().backend()).isInstanceOf(CpuBackend.class);
                    assertThat(e.cpuBecause()).as("the refusal, for the app's notice").contains("needs about")
                            .contains("are free");
                    assertThat(transcribe(e, audio)).isEqualTo(want);
                }
            } finally {
                hog.forEach(DeviceBuffer::close);
            }
        }
    }
}
