package dev.dictum.whisper.testutil;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dictum.gpu.backend.GpuBackend;
import dev.dictum.gpu.device.GpuDriver;
import dev.dictum.gpu.select.Backends;
import java.nio.file.Files;
import java.nio.file.Path;

/** The toy-en q8_0 model and one of its samples for the GPU decoder-step tests, and the device they need. */
public final class ToyEnGpu {
    public static final Path MODEL = TestData.model("toy-en/ggml-toy-en-q8_0.bin");
    public static final Path WAV = TestData.data("toy-en-samples", "sample_01.wav");

    private ToyEnGpu() {
    }

    /** The driver of {@code api}'s GPU; the test is skipped where the toy files or the GPU are missing. */
    public static GpuDriver driver(String api) {
        assumeTrue(Files.isRegularFile(MODEL) && Files.isRegularFile(WAV), "skipped: toy-en q8_0 is missing");
        try (GpuBackend probe = Backends.openGpu(api)) {
            return probe.driver();
        } catch (IllegalArgumentException e) {
            assumeTrue(false, "skipped: no GPU (" + e.getMessage() + ")");
            throw e;
        }
    }
}
