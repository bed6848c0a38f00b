package dev.dictum.whisper.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dictum.gpu.MemoryCategory;
import dev.dictum.gpu.backend.GpuBackend;
import dev.dictum.gpu.select.Backends;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.session.WhisperEngine;
import dev.dictum.whisper.testutil.TestData;
import dev.dictum.whisper.testutil.ToyEnGpu;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 22 item 1 on the device: the encoder's activations and the decoders' are one allocation, so an
 * encode between two decoder feeds overwrites the memory a captured step graph (CUDA) names. toy-en (q8_0):
 * two greedy decodings (window A, the kept buffers, and window B, its own) and a beam-5 decoding of A advance
 * one feed at a time while other windows are encoded between their feeds, one encode is stopped between its
 * layers, and the region is trimmed twice (the encoder's tail freed, then allocated again). Every
 * row's logits at every feed must be bit for bit those of the same decodings run one after the other with
 * nothing between their feeds (the same kernels on the same inputs; a graph that read what the encoder left,
 * or replayed over freed memory, would differ). The ledger counts the region once, at the estimate's size,
 * and a trim leaves the decoders' part.
 */
class GpuSharedScratchTest {
    private static final int FEEDS = 24;
    /** At most the 256-byte alignment of every buffer of the region (24 of the decoders', 9 of the encoder's). */
    private static final long ALIGNMENT = 33 * 256;

    /** A four-token prompt to each row: sot, the first language, transcribe, no timestamps. */
    private static int[] prompt(WhisperModel m) {
        var s = m.vocabulary().specials();
        return new int[] {s.sot(), s.firstLanguage(), s.transcribe(), s.noTimestamps()};
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cuda", "hip"})
    void decodingsBetweenEncodesAndReleasesGiveTheSameLogitsBitForBit(String api) {
        ToyEnGpu.driver(api); // skipped without the GPU or the model
        GpuBackend gpu = Backends.openGpu(api);
        try (WhisperEngine e = WhisperEngine.load(ToyEnGpu.MODEL, gpu)) {
            WhisperModel m = e.model();
            WhisperDims d = m.dims();
            long decoders = java.util.Arrays.stream(DecoderActivations.layout(d, ModelMemory.MAX_SEQUENCES)).sum();
            float[] melA = GreedySteps.randomMel(d, 1);
            float[] melB = GreedySteps.randomMel(d, 2);
            float[] melC = GreedySteps.randomMel(d, 3);
            List<List<float[]>> want = new ArrayList<>();
            for (Object[] job : new Object[][] {{melA, 1}, {melB, 1}, {melA, 5}}) {
                try (EncodedAudio a = m.encode((float[]) job[0]); DecoderState dec = m.newDecoder((int) job[1])) {
                    FeedByFeed r = new FeedByFeed(dec, a, (int) job[1], prompt(m), d);
                    for (int f = 0; f < FEEDS; f++) {
                        r.next();
                    }
                    want.add(r.seen);
                }
            }
            try (EncodedAudio a = m.encode(melA); EncodedAudio b = m.encode(melB); DecoderState greedyA = m.newDecoder(1);
                    DecoderState greedyB = m.newDecoder(1); DecoderState beams = m.newDecoder(5)) {
                FeedByFeed[] runs = {new FeedByFeed(greedyA, a, 1, prompt(m), d), new FeedByFeed(greedyB, b, 1, prompt(m), d),
                    new FeedByFeed(beams, a, 5, prompt(m), d)};
                for (int feed = 0; feed < FEEDS; feed++) {
                    for (FeedByFeed r : runs) {
                        r.next();
                        if (feed % 4 == 1) {
                            m.encode(melC).close(); // a window encoded between two decoders' feeds
                        }
                    }
                    if (feed == 6) {
                        AtomicInteger asked = new AtomicInteger();
                        assertThatThrownBy(() -> m.encode(melC, d.nAudioCtx(), () -> asked.incrementAndGet() < 3))
                                .as("an encode stopped after its first layer").isInstanceOf(Preempted.class);
                    }
                    if (feed == 8 || feed == 16) {
                        m.releaseScratch();
                        long left = gpu.memoryReport().byCategory().get(MemoryCategory.SHARED_SCRATCH).current();
                        if (gpu.capturesSteps()) {
                            assertThat(left).as("the decoders' part, which the steps name").isBetween(4 * decoders,
                                    4 * decoders + ALIGNMENT);
                        } else {
                            assertThat(left).as("no captured steps: all of it").isZero();
                        }
                    }
                }
                for (int i = 0; i < runs.length; i++) {
                    assertThat(runs[i].seen).hasSameSizeAs(want.get(i));
                    for (int j = 0; j < want.get(i).size(); j++) {
                        float[] got = runs[i].seen.get(j);
                        float[] w = want.get(i).get(j);
                        String where = api + ": decoding " + i + ", row " + j;
                        assertThat(Arrays.mismatch(got, w)) // containsExactly: minutes to say a whole row differs
                                .as(() -> where + ": first element that differs (-1: none), ‖got−want‖/‖want‖ = "
                                        + TestData.relativeError(got, w)).isEqualTo(-1);
                    }
                }
            }
            long region = ModelMemory.onGpu(d).sharedScratch();
            long peak = gpu.memoryReport().byCategory().get(MemoryCategory.SHARED_SCRATCH).peak();
            assertThat(peak).as("the region once, at the estimate (+ 256-byte alignment of its buffers)")
                    .isBetween(region, region + ALIGNMENT);
        }
    }
}
