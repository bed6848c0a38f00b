package dev.dictum.whisper.session;

import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.whisper.testutil.TestData;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The toy-en ggml model on the CPU backend, loaded before a test class's first test and closed after
 * its last: register it as {@code @RegisterExtension static final ToyEnCpuEngine EN}.
 */
final class ToyEnCpuEngine implements BeforeAllCallback, AfterAllCallback {
    private WhisperEngine engine;

    @Override
    public void beforeAll(ExtensionContext context) {
        engine = WhisperEngine.load(TestData.model("toy-en").resolve("ggml-toy-en.bin"), new CpuBackend());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        engine.close();
    }

    WhisperEngine get() {
        return engine;
    }
}
