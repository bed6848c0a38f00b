package dev.dictum.whisper.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dictum.gpu.ModelTooLarge;
import dev.dictum.gpu.backend.GpuBackend;
import dev.dictum.gpu.select.Backends;
import dev.dictum.whisper.format.WeightSource;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.format.detect.ModelFiles;
import dev.dictum.whisper.testutil.TestData;
import dev.dictum.whisper.testutil.ToyEnGpu;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 22 on the device: a model whose encoder blocks take turns in two device slots (their matrices copied
 * in from host memory before each runs) decodes exactly as the same model held whole. toy-en (q8_0, 4 encoder
 * blocks) with 3 and 4 blocks in turns: three windows (one of them a shortened encoder context), an encode
 * stopped after its first block between them, and a greedy decoding of each window for 8 feeds; every row's
 * logits must be bit for bit the resident model's (the same kernels on the same weights: a block that ran on
 * the wrong or a half-copied layer's weights would differ). And the load chooses the turns itself under
 * DICTUM_GPU_MEMORY_MIB's limit: as few as fit, or a refusal that names the limit.
 */
class GpuEncoderTurnsTest {
    private static final int FEEDS = 8;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cuda", "hip"})
    void blocksInTurnsGiveTheResidentModelsLogitsBitForBit(String api) {
        ToyEnGpu.driver(api); // skipped without the GPU or the model
        List<float[]> want = decode(api, 0);
        for (int inTurns : new int[] {3, 4}) {
            List<float[]> got = decode(api, inTurns);
            assertThat(got).hasSameSizeAs(want);
            for (int i = 0; i < want.size(); i++) {
                assertThat(java.util.Arrays.mismatch(got.get(i), want.get(i))) // containsExactly: minutes to fail
                        .as("%s, %d blocks in turns, feed row %d: first element that differs (-1: none), "
                                + "‖got−want‖/‖want‖ = %.3g", api, inTurns, i,
                                TestData.relativeError(got.get(i), want.get(i))).isEqualTo(-1);
            }
        }
    }

    private static List<float[]> decode(String api, int inTurns) {
        GpuBackend gpu = Backends.openGpu(api);
        try (WhisperModel m = WhisperModel.load(ModelFiles.open(ToyEnGpu.MODEL), gpu, gpu::capturesSteps, inTurns)) {
            assertThat(m.encoderBlocksInTurns()).isEqualTo(inTurns);
            WhisperDims d = m.dims();
            List<float[]> seen = new ArrayList<>();
            int[] positions = {d.nAudioCtx(), d.nAudioCtx() / 2 + 1, d.nAudioCtx()};
            for (int w = 0; w < positions.length; w++) {
                if (w == 1) {
                    AtomicInteger asked = new AtomicInteger();
                    float[] other = GreedySteps.randomMel(d, 9);
                    assertThatThrownBy(() -> m.encode(other, d.nAudioCtx(), () -> asked.incrementAndGet() < 3))
                            .as("an encode stopped after its first block").isInstanceOf(Preempted.class);
                }
                try (EncodedAudio a = m.encode(GreedySteps.randomMel(d, w + 1), positions[w]);
                        DecoderState dec = m.newDecoder(1)) {
                    var s = m.vocabulary().specials();
                    FeedByFeed r = new FeedByFeed(dec, a, 1, new int[] {s.sot(), s.firstLanguage(), s.transcribe(),
                        s.noTimestamps()}, d);
                    for (int f = 0; f < FEEDS; f++) {
                        r.next();
                    }
                    seen.addAll(r.seen);
                }
            }
            return seen;
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cuda", "hip"})
    void underALimitTheLoadPutsAsFewBlocksInTurnsAsFitOrSaysWhy(String api) {
        var driver = ToyEnGpu.driver(api);
        long held;
        try (GpuBackend probe = new GpuBackend(driver, 0)) {
            held = probe.memoryReport().total().current(); // staging and the ops' fixed scratch
        }
        ModelMemory need;
        try (WeightSource s = ModelFiles.open(ToyEnGpu.MODEL)) {
            need = ModelMemory.onGpu(s);
        }
        GpuBackend tight = new GpuBackend(driver, 0, held + need.total() - 1);
        try (WhisperModel m = WhisperModel.load(ModelFiles.open(ToyEnGpu.MODEL), tight)) {
            assertThat(m.encoderBlocksInTurns()).as("one block's saving is enough").isEqualTo(3);
        }
        GpuBackend tiny = new GpuBackend(driver, 0, 1L << 20);
        try {
            assertThatThrownBy(() -> WhisperModel.load(ModelFiles.open(ToyEnGpu.MODEL), tiny))
                    .isInstanceOf(ModelTooLarge.class).hasMessageContaining("over the DICTUM_GPU_MEMORY_MIB=1 limit");
        } finally {
            tiny.close();
        }
    }
}
