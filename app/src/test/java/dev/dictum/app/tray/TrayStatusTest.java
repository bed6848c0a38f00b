package dev.dictum.app.tray;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.app.dictation.DictationState;
import dev.dictum.app.engine.EngineManager;
import org.junit.jupiter.api.Test;

class TrayStatusTest {
    static final EngineManager.State READY = new EngineManager.State(EngineManager.Phase.READY, "toy-en", "cpu", "warm");

    @Test
    void theHeaderNeverSaysReadyWhileTheIconShowsTheNoMicrophoneMark() {
        TrayStatus t = TrayStatus.of(READY, DictationState.IDLE,
                "No microphone: Java Sound lists no input line (is PulseAudio running?)");
        assertThat(t.look()).isEqualTo(TrayIcons.Look.ERROR);
        assertThat(t.headline()).isEqualTo("No microphone");
        assertThat(t.tooltip()).isEqualTo("Dictum: No microphone · toy-en · CPU");
        assertThat(TrayStatus.of(READY, DictationState.IDLE, null).headline()).isEqualTo("Ready");
    }

    @Test
    void theTooltipFitsSixtyFourCharactersAndSaysEachThingOnce() {
        EngineManager.State big = new EngineManager.State(EngineManager.Phase.READY,
                "distil-large-v3.5 (ggml q5_0, from the Hugging Face cache)", "cuda", "warm");
        String tip = TrayStatus.of(big, DictationState.RECORDING, null).tooltip();
        assertThat(tip).hasSizeLessThanOrEqualTo(63).startsWith("Dictum: Recording · distil-large").endsWith("…");
        String plain = TrayStatus.of(READY, DictationState.IDLE, null).tooltip();
        assertThat(plain).isEqualTo("Dictum: Ready · toy-en · CPU");
        assertThat(plain.indexOf("Dictum")).isEqualTo(plain.lastIndexOf("Dictum"));
    }

    @Test
    void backendReasonsAreAFewWords() {
        assertThat(BackendReason.shortly("no NVIDIA driver (libcuda.so.1 cannot be loaded: libcuda.so.1: cannot open"
                + " shared object file: No such file or directory)")).isEqualTo("no NVIDIA driver");
        assertThat(BackendReason.shortly("hipInit failed: hipErrorInvalidDevice (101)")).isEqualTo("no GPU found");
        assertThat(BackendReason.shortly("x".repeat(400))).hasSize(BackendReason.MAX);
    }
}
