package dev.dictum.whisper.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dictum.gpu.MemoryCategory;
import dev.dictum.gpu.backend.GpuBackend;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.format.detect.ModelFiles;
import dev.dictum.whisper.model.EncodedAudio;
import dev.dictum.whisper.model.ModelMemory;
import dev.dictum.whisper.model.WhisperModel;
import dev.dictum.whisper.testutil.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 22 on a device: an encoded window's cross keys and values are f16 in the GPU's memory, 2 bytes
 * × decoder layers × (keys transposed, rows padded to a multiple of 64, + values) × n_state, as the
 * estimate the app decides by ({@link ModelMemory}) counts them; a window of a multiple of 64
 * positions has no padding: exactly 2 bytes × layers × 2 × frames × n_state.
 */
class GpuCrossKvTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cuda", "hip"})
    void aWindowsCrossKvTakeTwoBytesAValue(String api) {
        GpuBackend gpu = GpuModelTest.gpu(api);
        try (WhisperModel m = WhisperModel.load(ModelFiles.open(toyModel()), gpu)) {
            WhisperDims d = m.dims();
            long n = d.nTextState();
            long layers = d.nTextLayer();
            int frames = d.nAudioCtx();
            float[] mel = randomMel(d);
            long stride = (frames + 63) / 64 * 64;
            try (EncodedAudio full = m.encode(mel)) {
                assertThat(crossKv(gpu)).isEqualTo(2 * layers * (n * stride + frames * n))
                        .isEqualTo(ModelMemory.onGpu(d).crossKv());
            }
            long before = crossKv(gpu); // the full window's set may wait for the next window (graphs)
            int shorter = (frames - 1) / 64 * 64;
            try (EncodedAudio w = m.encode(mel, shorter)) {
                assertThat(crossKv(gpu) - before).isEqualTo(2 * layers * 2 * shorter * n);
            }
        } finally {
            gpu.close();
        }
    }

    private static long crossKv(GpuBackend gpu) {
        return gpu.memoryReport().byCategory().get(MemoryCategory.CROSS_KV).current();
    }

    private static float[] randomMel(WhisperDims d) {
        float[] mel = new float[d.nMels() * d.melFrames()];
        SplittableRandom rnd = new SplittableRandom(System.nanoTime());
        for (int i = 0; i < mel.length; i++) {
            mel[i] = (float) rnd.nextDouble(-1, 1);
        }
        return mel;
    }

    /** The toy model the GPU bundle carries (toy-en or toy-multi, q8_0). */
    private static Path toyModel() {
        for (String m : new String[] {"toy-en/ggml-toy-en-q8_0.bin", "toy-multi/ggml-toy-multi-q8_0.bin"}) {
            Path p = TestData.model(m);
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        assumeTrue(false, "skipped: no toy model in " + TestData.root());
        return null;
    }
}
