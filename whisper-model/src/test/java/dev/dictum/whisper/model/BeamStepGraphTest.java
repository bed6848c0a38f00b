package dev.dictum.whisper.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.whisper.decode.DecodingOptions;
import dev.dictum.whisper.decode.DecodingResult;
import dev.dictum.whisper.decode.DecodingTask;
import dev.dictum.whisper.mel.LogMel;
import dev.dictum.whisper.model.KvDecoderState.Reorder;
import dev.dictum.whisper.session.WhisperEngine;
import dev.dictum.whisper.testutil.GraphRecordingBackend;
import dev.dictum.whisper.testutil.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Beam steps as graphs (issue 22 item 4), without a GPU: through {@link GraphRecordingBackend} (a capture
 * records the ops with their buffers, a replay runs exactly those again, reading the step buffer then, as a
 * CUDA graph does), beam-5 decoding of every toy-en sample gives the plain CPU's logits bit for bit at every
 * feed — across the reorders between replays, which only rewrite the row tables — with one capture per
 * decoding and every later step a replay.
 */
class BeamStepGraphTest {

    @Test
    void beamStepsReplayedFromOneCaptureGiveThePlainCpusLogits() throws Exception {
        List<Path> wavs;
        try (var files = Files.list(TestData.data("toy-en-samples"))) {
            wavs = files.filter(f -> f.toString().endsWith(".wav")).sorted().toList();
        }
        GraphRecordingBackend rec = new GraphRecordingBackend();
        try (WhisperEngine plain = WhisperEngine.load(TestData.model("toy-en"), new CpuBackend());
                WhisperEngine graphs = WhisperEngine.load(TestData.model("toy-en"), rec.backend())) {
            DecodingOptions o = DecodingOptions.defaults().withBeamSize(5);
            for (Path wav : wavs) {
                float[] audio16k = TestData.wav16kMono(wav);
                DecodingResult want;
                RecordingDecoderState eager;
                try (EncodedAudio audio = plain.model().encode(new LogMel(plain.model().dims().nMels()).window(audio16k));
                        RecordingDecoderState s = BeamReorderByIndexTest.beams(plain.model(), Reorder.BY_INDEX)) {
                    want = new DecodingTask(plain.model(), plain.codec(), o).run(audio, s, null);
                    eager = s;
                }
                int capturesBefore = rec.captures();
                int replaysBefore = rec.replays();
                try (EncodedAudio audio = graphs.model().encode(new LogMel(plain.model().dims().nMels()).window(audio16k));
                        RecordingDecoderState s = BeamReorderByIndexTest.beams(graphs.model(), Reorder.BY_INDEX)) {
                    DecodingResult got = new DecodingTask(graphs.model(), graphs.codec(), o).run(audio, s, null);
                    String what = wav.getFileName().toString();
                    assertThat(s.logits).as(what).hasSameSizeAs(eager.logits);
                    for (int f = 0; f < eager.logits.size(); f++) {
                        assertThat(Arrays.deepEquals(s.logits.get(f), eager.logits.get(f)))
                                .as(what + ": feed " + f + " bit for bit").isTrue();
                    }
                    assertThat(got.tokens()).as(what).containsExactly(want.tokens());
                    assertThat(s.moves).as(what + ": reorders between replays").isPositive();
                    // toy-en's prompt is [sot]: every feed is one token for each beam, hence a beam step. The
                    // first runs eagerly and its check replays it once; every later one is a replay.
                    assertThat(rec.captures() - capturesBefore).as(what + ": captures").isEqualTo(1);
                    assertThat(rec.replays() - replaysBefore).as(what + ": replays").isEqualTo(s.logits.size());
                }
            }
        }
    }
}
