package dev.dictum.whisper.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.gpu.MemoryCategory;
import dev.dictum.gpu.backend.GpuBackend;
import dev.dictum.gpu.select.Backends;
import dev.dictum.whisper.decode.DecodingOptions;
import dev.dictum.whisper.decode.DecodingResult;
import dev.dictum.whisper.decode.DecodingTask;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.mel.LogMel;
import dev.dictum.whisper.model.KvDecoderState.Reorder;
import dev.dictum.whisper.session.WhisperEngine;
import dev.dictum.whisper.testutil.TestData;
import dev.dictum.whisper.testutil.ToyEnGpu;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Beam search reordered by index on the GPU (issue 22 item 4): for every toy-en sample (q8_0), beam-5
 * decoding through the row tables (attention_rows_f16kv) gives the tokens and text of the copy it
 * replaced (the strided attention over copied rows), with every feed's logits within 1e-4 of the
 * copy's (two attention kernels: the same math, another summation order), and the device's self K/V
 * ledger holds the caches once (in f16: 2 bytes a value) where the copy held them twice. BeamReorderByIndexTest is the CPU's
 * bit-for-bit version.
 */
class GpuBeamReorderTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cuda", "hip"})
    void beamFiveByIndexGivesTheCopysTranscripts(String api) throws Exception {
        ToyEnGpu.driver(api); // skipped without the GPU or the model
        List<Path> wavs;
        try (var files = Files.list(TestData.data("toy-en-samples"))) {
            wavs = files.filter(f -> f.toString().endsWith(".wav")).sorted().toList();
        }
        int moved = 0;
        GpuBackend gpu = Backends.openGpu(api);
        try (WhisperEngine e = WhisperEngine.load(ToyEnGpu.MODEL, gpu)) {
            assertThat(e.model().backend()).isSameAs(gpu);
            WhisperModel model = e.model();
            DecodingOptions o = DecodingOptions.defaults().withBeamSize(5);
            for (Path wav : wavs) {
                float[] mel = new LogMel(model.dims().nMels()).window(TestData.wav16kMono(wav));
                try (EncodedAudio audio = model.encode(mel);
                        RecordingDecoderState copy = BeamReorderByIndexTest.beams(model, Reorder.BY_COPY);
                        RecordingDecoderState index = BeamReorderByIndexTest.beams(model, Reorder.BY_INDEX)) {
                    DecodingResult want = new DecodingTask(model, e.codec(), o).run(audio, copy, null);
                    DecodingResult got = new DecodingTask(model, e.codec(), o).run(audio, index, null);
                    String what = api + " " + wav.getFileName();
                    assertThat(got.tokens()).as(what).containsExactly(want.tokens());
                    assertThat(got.text()).as(what).isEqualTo(want.text());
                    assertThat(index.logits).as(what).hasSameSizeAs(copy.logits);
                    for (int f = 0; f < copy.logits.size(); f++) {
                        for (int b = 0; b < copy.logits.get(f).length; b++) {
                            assertThat(TestData.relativeError(index.logits.get(f)[b], copy.logits.get(f)[b]))
                                    .as(what + " feed " + f + " beam " + b).isLessThanOrEqualTo(1e-4);
                        }
                    }
                    moved += index.moves > 0 ? 1 : 0;
                }
            }
        }
        assertThat(moved).as("decodings whose beams were reordered").isPositive();
    }

    /** The device's ledger after one beam-5 decoding each way: the caches once by index, twice by copy. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cuda", "hip"})
    void theSelfKvOfBeamFiveIsHeldOnceOnTheDevice(String api) throws Exception {
        ToyEnGpu.driver(api);
        float[] audio16k = TestData.wav16kMono(ToyEnGpu.WAV);
        for (Reorder how : Reorder.values()) {
            GpuBackend gpu = Backends.openGpu(api);
            try (WhisperEngine e = WhisperEngine.load(ToyEnGpu.MODEL, gpu)) {
                WhisperModel model = e.model();
                WhisperDims d = model.dims();
                try (EncodedAudio audio = model.encode(new LogMel(d.nMels()).window(audio16k));
                        RecordingDecoderState state = BeamReorderByIndexTest.beams(model, how)) {
                    new DecodingTask(model, e.codec(), DecodingOptions.defaults().withBeamSize(5)).run(audio, state,
                            null);
                    assertThat(state.moves).as(api + " " + how + ": beams were reordered").isPositive();
                }
                // keys and values in f16 (issue 22): 2 bytes a value, where f32 caches would read twice this
                long oneSet = 2L * 2 * d.nTextLayer() * 5 * d.nTextCtx() * d.nTextState();
                long peak = gpu.memoryReport().byCategory().get(MemoryCategory.SELF_KV).peak();
                assertThat(peak).as(api + " " + how + ": self K/V peak")
                        .isEqualTo(how == Reorder.BY_INDEX ? oneSet : 2 * oneSet);
            }
        }
    }
}
