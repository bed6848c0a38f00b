package dev.dictum.app.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.app.engine.EngineManager;
import dev.dictum.app.settings.Settings;
import java.nio.file.Files;
import java.nio.file.Path;

/** The toy English model from testdata, loaded and warmed up on the CPU as the app does it. */
public final class ToyEngine {
    /** The test data folder (the build passes it as {@code dictum.testdata}). */
    public static final Path TESTDATA = Path.of(System.getProperty("dictum.testdata", "testdata"));

    private ToyEngine() {
    }

    /**
     * An engine manager with toy-en ready (loading and warming up takes seconds: share it per test class).
     * The f16 file where there is one, else its q8_0 (the GPU bundle carries only that; both give every
     * sample's exact text).
     */
    public static EngineManager load() throws InterruptedException {
        EngineManager engines = new EngineManager(() -> Settings.defaults().transcription());
        Path f16 = TESTDATA.resolve("models/toy-en/ggml-toy-en.bin");
        engines.load(Files.exists(f16) ? f16 : TESTDATA.resolve("models/toy-en/ggml-toy-en-q8_0.bin"), "toy-en", "cpu");
        assertThat(engines.await(120_000)).isNotNull();
        return engines;
    }
}
