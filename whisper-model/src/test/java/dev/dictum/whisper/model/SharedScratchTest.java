package dev.dictum.whisper.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.format.detect.ModelFiles;
import dev.dictum.whisper.testutil.GgmlWriter;
import dev.dictum.whisper.testutil.GraphRecordingBackend;
import dev.dictum.whisper.testutil.TinyWhisper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22 item 1 without a GPU: the encoder and the decoder states share one scratch region, so nothing a
 * phase leaves there may be read after another phase ran — not by the next feed, and not by a captured step
 * replayed later. The region here fills every lease's buffers with NaN ({@link ScratchRegion#poisonEachLease}),
 * as if the other phase had just written there, and the step graphs record and replay the buffers they were
 * captured with ({@link GraphRecordingBackend}, as CUDA graphs do). Two greedy decodings (two windows) and a
 * beam-5 decoding advance one feed at a time, with encodes, an encode stopped between its layers and
 * idle trims of the region (the encoder's tail freed and allocated again) between their feeds: every row's
 * logits at every feed must equal those of the plain CPU decoding each alone, bit for bit. A model that
 * keeps its steps captures each once (a trim leaves the decoders' buffers where they are); one that does
 * not frees the whole region, and each decoding captures again over the new one.
 */
class SharedScratchTest {
    private static final long SEED = 11;

    @TempDir
    Path tmp;

    /** A two-token prompt to each row (toy vocabulary: sot, no timestamps). */
    private static final int[] PROMPT = {50257, 50362};

    private static List<List<float[]>> alone(Path file, float[] melA, float[] melB) {
        WhisperDims d = TinyWhisper.EN;
        List<List<float[]>> out = new ArrayList<>();
        try (WhisperModel m = WhisperModel.load(ModelFiles.open(file), new CpuBackend())) {
            for (Object[] job : new Object[][] {{melA, 1}, {melB, 1}, {melA, 5}}) {
                try (EncodedAudio a = m.encode((float[]) job[0]); DecoderState dec = m.newDecoder((int) job[1])) {
                    FeedByFeed r = new FeedByFeed(dec, a, (int) job[1], PROMPT, d);
                    while (r.next()) {
                        // to the end of the text context
                    }
                    out.add(r.seen);
                }
            }
        }
        return out;
    }

    /**
     * keep: the model keeps its captured steps (CUDA), so the idle trim frees the encoder's tail alone and
     * every decoding captures once; not: the trim frees the whole region (as without graphs), and each
     * decoding's next step, meeting another allocation, drops its graph and captures again.
     */
    @ParameterizedTest(name = "keep step buffers: {0}")
    @ValueSource(booleans = {true, false})
    void decodingsBetweenEncodesAndReleasesNeverReadWhatAnotherPhaseLeft(boolean keep) {
        WhisperDims d = TinyWhisper.EN;
        Path file = GgmlWriter.write(tmp.resolve("m.bin"), d, SEED, GgmlWriter.Type.F16).file();
        float[] melA = GreedySteps.randomMel(d, 1);
        float[] melB = GreedySteps.randomMel(d, 2);
        float[] melC = GreedySteps.randomMel(d, 3);
        List<List<float[]>> want = alone(file, melA, melB);
        GraphRecordingBackend rec = new GraphRecordingBackend();
        int releases = 0;
        try (WhisperModel m = WhisperModel.load(ModelFiles.open(file), rec.backend(), () -> keep)) {
            m.scratch().poisonEachLease();
            try (EncodedAudio a = m.encode(melA); EncodedAudio b = m.encode(melB); DecoderState greedyA = m.newDecoder(1);
                    DecoderState greedyB = m.newDecoder(1); DecoderState beams = m.newDecoder(5)) {
                FeedByFeed[] runs = {new FeedByFeed(greedyA, a, 1, PROMPT, d), new FeedByFeed(greedyB, b, 1, PROMPT, d),
                    new FeedByFeed(beams, a, 5, PROMPT, d)};
                for (int feed = 0; feed < d.nTextCtx(); feed++) {
                    for (FeedByFeed r : runs) {
                        r.next();
                        if (feed == 1) {
                            m.encode(melC).close(); // a third window between two decoders' feeds
                        }
                    }
                    if (feed == 2) {
                        AtomicInteger asked = new AtomicInteger();
                        assertThatThrownBy(() -> m.encode(melC, d.nAudioCtx(), () -> asked.incrementAndGet() < 2))
                                .as("an encode stopped after its convolutions").isInstanceOf(Preempted.class);
                    }
                    if (feed == 2 || feed == 4) {
                        m.releaseScratch(); // the idle trim
                        releases++;
                    }
                }
                for (int i = 0; i < runs.length; i++) {
                    assertThat(runs[i].seen).hasSameSizeAs(want.get(i));
                    for (int j = 0; j < want.get(i).size(); j++) {
                        assertThat(runs[i].seen.get(j)).as("decoding %d, row %d", i, j).containsExactly(want.get(i).get(j));
                    }
                }
            }
        }
        assertThat(releases).isEqualTo(2);
        assertThat(rec.captures()).as("each decoding's step captured once, and again after each release")
                .isEqualTo(keep ? 3 : 3 * (1 + releases));
    }
}
