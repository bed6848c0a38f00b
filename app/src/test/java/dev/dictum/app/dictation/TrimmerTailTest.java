package dev.dictum.app.dictation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.app.engine.WhisperSpeechEngine;
import dev.dictum.app.settings.TranscriptionSettings;
import dev.dictum.audio.AudioInput;
import dev.dictum.audio.vad.SpeechTrimmer;
import dev.dictum.audio.vad.VoiceActivityDetector;
import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.session.WhisperEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The trimmer's tail is as short as it can be without changing a word (issue 23): every sample, and
 * every clip made to end in an unvoiced sound (s, t, f, th: testdata/data/unvoiced-endings), gives the
 * same text trimmed with {@link SpeechTrimmer#TAIL_FRAMES} as with the {@value #LONG_TAIL_FRAMES}-frame
 * tail the trimmer kept before.
 */
class TrimmerTailTest {
    private static final int LONG_TAIL_FRAMES = 13;
    private static final int FRAME = VoiceActivityDetector.FRAME;

    @Test
    void toyEnGivesTheSameTextWithTheShortTail() throws Exception {
        check("models/toy-en/ggml-toy-en.bin", List.of("toy-en-samples", "unvoiced-endings"),
                f -> !f.getParent().endsWith("unvoiced-endings") || f.getFileName().toString().startsWith("en_"));
    }

    @Test
    void toyMultiGivesTheSameTextWithTheShortTail() throws Exception {
        check("models/toy-multi", List.of("toy-multi-samples", "unvoiced-endings"), f -> true);
    }

    private static void check(String model, List<String> folders, Predicate<Path> which) throws Exception {
        TranscriptionSettings settings = TranscriptionSettings.defaults();
        try (WhisperEngine w = WhisperEngine.load(SpeculationExactness.TESTDATA.resolve(model), new CpuBackend())) {
            TranscribeOptions o = new WhisperSpeechEngine(w, model, "cpu", () -> settings).options(settings);
            int checked = 0;
            for (String folder : folders) {
                try (var files = Files.list(SpeculationExactness.TESTDATA.resolve("data").resolve(folder))) {
                    for (Path f : files.filter(p -> p.toString().endsWith(".wav")).filter(which).sorted().toList()) {
                        float[] raw = AudioInput.readMono16k(f);
                        float[] trimmed = SpeculationExactness.trimmed(raw, raw.length);
                        float[] longer = withLongTail(raw, trimmed);
                        assertThat(w.transcribe(trimmed, o).text()).as("%s with %s", f.getFileName(), model)
                                .isEqualTo(w.transcribe(longer, o).text());
                        checked++;
                    }
                }
            }
            assertThat(checked).isGreaterThanOrEqualTo(10);
        }
    }

    /**
     * The same stretch of {@code raw} as {@code trimmed} (one utterance: one contiguous stretch, starting
     * on a frame), its end moved out to the long tail, or to the clip's end where that comes first (as a
     * trimmer with the long tail would pass it on).
     */
    private static float[] withLongTail(float[] raw, float[] trimmed) {
        for (int start = 0; start + trimmed.length <= raw.length; start += FRAME) {
            if (Arrays.equals(raw, start, start + trimmed.length, trimmed, 0, trimmed.length)) {
                int end = start + trimmed.length + (LONG_TAIL_FRAMES - SpeechTrimmer.TAIL_FRAMES) * FRAME;
                return Arrays.copyOfRange(raw, start, Math.min(raw.length, end));
            }
        }
        throw new AssertionError("the trimmed audio is not one stretch of the clip");
    }
}
