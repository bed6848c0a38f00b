package dev.dictum.whisper.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.gpu.MemoryCategory;
import dev.dictum.gpu.MemoryReport;
import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.format.detect.ModelFiles;
import dev.dictum.whisper.testutil.TestData;
import org.junit.jupiter.api.Test;

/**
 * The model tags what it allocates (issue 22): a window's cross K/V and a decoder's self K/V are
 * counted in their categories at their sizes, and once everything is closed nothing is held.
 */
class MemoryAccountingTest {

    private static long held(CpuBackend be, MemoryCategory c) {
        return be.memoryReport().byCategory().get(c).current();
    }

    @Test
    void crossAndSelfKvAreCountedAtTheirSizesAndEverythingIsFreedAtTheEnd() {
        CpuBackend be = new CpuBackend();
        WhisperModel model = WhisperModel.load(ModelFiles.open(TestData.model("toy-en").resolve("ggml-toy-en.bin")),
                be, () -> false);
        WhisperDims d = model.dims();
        long n = d.nTextState();
        long frames = d.nAudioCtx();
        long cross = 4L * d.nTextLayer() * (n * TextDecoder.keysStride((int) frames) + frames * n);
        long self = 4L * 2 * d.nTextLayer() * d.nTextCtx() * n; // keys and values of one sequence
        try (EncodedAudio audio = model.encode(GreedySteps.randomMel(d, 5))) {
            assertThat(held(be, MemoryCategory.CROSS_KV)).isEqualTo(cross);
            assertThat(held(be, MemoryCategory.SELF_KV)).isZero();
            try (DecoderState s = model.newDecoder(1)) {
                s.reset(audio, 1);
                s.feed(new int[][] {{50257, 50362}}, new float[1][d.nVocab()]);
                assertThat(held(be, MemoryCategory.SELF_KV)).isEqualTo(self);
                assertThat(held(be, MemoryCategory.DECODER_SCRATCH)).as("the step's values").isEqualTo(4L * 3);
                // the logits and the rest of a feed's activations: in the region shared with the encoder, which
                // the CPU (no overlaid memory) holds as the two layouts side by side
                long encoder = java.util.Arrays.stream(AudioEncoder.scratchLayout(d)).sum();
                long decoder = java.util.Arrays.stream(DecoderActivations.layout(d, ModelMemory.MAX_SEQUENCES)).sum();
                assertThat(decoder).isGreaterThanOrEqualTo(d.nVocab());
                assertThat(held(be, MemoryCategory.SHARED_SCRATCH)).isEqualTo(4 * (encoder + decoder));
            }
        }
        model.releaseScratch();
        MemoryReport rep = be.memoryReport();
        assertThat(rep.total().current()).as("held after every window and decoder closed and the idle trim (no"
                + " captured steps kept: the whole shared region goes)").isZero();
        assertThat(rep.byCategory().get(MemoryCategory.SHARED_SCRATCH).peak())
                .as("the encoder's MLP activations at least").isGreaterThanOrEqualTo(4L * 4 * frames * d.nAudioState());
        assertThat(rep.byCategory().get(MemoryCategory.OTHER).peak()).as("every allocation tagged").isZero();
        long sumOfPeaks = rep.byCategory().values().stream().mapToLong(MemoryReport.Bytes::peak).sum();
        assertThat(rep.total().peak()).isBetween(cross + self, sumOfPeaks);
        model.close();
    }
}
