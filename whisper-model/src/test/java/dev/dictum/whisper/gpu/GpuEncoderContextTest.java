package dev.dictum.whisper.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.select.Backends;
import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.whisper.decode.DecodingOptions;
import dev.dictum.whisper.decode.EncoderContext;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.mel.LogMel;
import dev.dictum.whisper.model.DecoderState;
import dev.dictum.whisper.model.EncodedAudio;
import dev.dictum.whisper.session.WhisperEngine;
import dev.dictum.whisper.testutil.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A shortened encoder context on the GPU backends (the same graph with t = n): the encoder output
 * and first logits match the CPU's, and the toy sample transcribes to the CPU's auto-context text.
 */
class GpuEncoderContextTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cuda", "hip"})
    void aShortenedContextGivesTheCpusOutputAndText(String api) throws IOException {
        Path model = TestData.model("toy-en/ggml-toy-en-q8_0.bin");
        Path wav = TestData.data("toy-en-samples", "sample_01.wav");
        assumeTrue(Files.isRegularFile(model) && Files.isRegularFile(wav), "skipped: no toy model");
        Backend gpu;
        try {
            gpu = Backends.openGpu(api);
        } catch (IllegalArgumentException e) {
            assumeTrue(false, "skipped: no GPU (" + e.getMessage() + ")");
            return;
        }
        float[] audio = TestData.wav16kMono(wav);
        TranscribeOptions auto = TranscribeOptions.defaults()
                .withDecoding(DecodingOptions.defaults().withWithoutTimestamps(true))
                .withEncoderContext(EncoderContext.AUTO);
        try (WhisperEngine c = WhisperEngine.load(model, new CpuBackend()); WhisperEngine g = WhisperEngine.load(model, gpu)) {
            float[] mel = new LogMel(c.model().dims().nMels()).window(audio);
            float[][] cpu = encodeAndFirstLogits(c, mel, 320);
            float[][] dev = encodeAndFirstLogits(g, mel, 320);
            assertThat(dev[0]).hasSize(320 * c.model().dims().nAudioState());
            assertThat(TestData.relativeError(dev[0], cpu[0])).as("encoder output").isLessThanOrEqualTo(1e-3);
            assertThat(TestData.relativeError(dev[1], cpu[1])).as("first logits").isLessThanOrEqualTo(1e-3);
            assertThat(g.transcribe(audio, auto).strippedText()).isEqualTo(c.transcribe(audio, auto).strippedText());
        }
    }

    private static float[][] encodeAndFirstLogits(WhisperEngine e, float[] mel, int positions) {
        try (EncodedAudio enc = e.model().encode(mel, positions); DecoderState state = e.model().newDecoder(1)) {
            state.reset(enc, 1);
            var s = e.model().vocabulary().specials();
            float[][] logits = new float[1][e.model().dims().nVocab()];
            state.feed(new int[][] {{s.sot(), s.noTimestamps()}}, logits);
            return new float[][] {enc.toHost(), logits[0]};
        }
    }
}
