package dev.dictum.whisper.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.decode.TranscriptionResult;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.format.detect.ModelFiles;
import dev.dictum.whisper.session.WhisperEngine;
import dev.dictum.whisper.testutil.GgmlWriter;
import dev.dictum.whisper.testutil.GraphRecordingBackend;
import dev.dictum.whisper.testutil.TestData;
import dev.dictum.whisper.testutil.TinyWhisper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12: a dictation after the first replays the captured decoder step from its first token. The
 * model keeps one full window's buffers and one greedy decoder state between transcriptions; a
 * window gets the kept buffers only once the previous holder closed, any other window gets its own
 * (freed on close) and a state that meets it captures again. On the CPU, with graphs that record
 * the buffers they were captured with ({@link GraphRecordingBackend}), every logit and transcript
 * equals the plain CPU's.
 */
class StepGraphReuseTest {
    private static final long SEED = 11;
    private static final Path TOY_EN = TestData.model("toy-en").resolve("ggml-toy-en.bin");

    @TempDir
    Path tmp;

    private Path tinyModel() {
        return GgmlWriter.write(tmp.resolve("m.bin"), TinyWhisper.EN, SEED, GgmlWriter.Type.F16).file();
    }

    private static void assertSameLogits(List<float[]> got, List<float[]> want, String what) {
        assertThat(got).as(what).hasSameSizeAs(want);
        for (int i = 0; i < want.size(); i++) {
            assertThat(got.get(i)).as("%s: logits of step %d", what, i).containsExactly(want.get(i));
        }
    }

    /** Plain CPU, fresh model: the logits of decoding each mel. */
    private static List<List<float[]>> eager(Path file, float[]... mels) {
        List<List<float[]>> out = new ArrayList<>();
        try (WhisperModel m = WhisperModel.load(ModelFiles.open(file), new CpuBackend())) {
            for (float[] mel : mels) {
                try (EncodedAudio a = m.encode(mel); DecoderState dec = m.newDecoder(1)) {
                    out.add(GreedySteps.logits(dec, a, m.dims()));
                }
            }
        }
        return out;
    }

    @Test
    void aWindowTakesTheKeptBuffersOnlyOnceThePreviousHolderIsClosed() {
        Path file = tinyModel();
        try (WhisperModel m = WhisperModel.load(ModelFiles.open(file), new CpuBackend(), () -> true);
                WhisperModel fresh = WhisperModel.load(ModelFiles.open(file), new CpuBackend())) {
            WhisperDims d = m.dims();
            float[] melA = GreedySteps.randomMel(d, 1);
            float[] melB = GreedySteps.randomMel(d, 2);
            EncodedAudio a = m.encode(melA);
            WindowBuffers kept = ((EncodedWindow) a).buffers();
            assertThat(m.holdsKeptWindow(a)).as("the first window").isTrue();
            EncodedAudio b = m.encode(melB);
            assertThat(m.holdsKeptWindow(b)).as("a window while the first is open").isFalse();
            a.close();
            assertThatThrownBy(a::toHost).hasMessageContaining("closed");
            EncodedAudio c = m.encode(melB);
            assertThat(((EncodedWindow) c).buffers()).as("the next window after the close").isSameAs(kept);
            a.close(); // a second close must not give away what c holds now
            try (EncodedAudio e = m.encode(melA)) {
                assertThat(m.holdsKeptWindow(e)).as("a window while c holds the kept buffers").isFalse();
            }
            try (EncodedAudio shortWindow = m.encode(melA, d.nAudioCtx() / 2)) {
                assertThat(m.holdsKeptWindow(shortWindow)).as("an --audio-ctx window").isFalse();
            }
            try (EncodedAudio wantA = fresh.encode(melA); EncodedAudio wantB = fresh.encode(melB)) {
                assertThat(c.toHost()).as("c, in the kept buffers").containsExactly(wantB.toHost());
                assertThat(b.toHost()).as("b, beside c").containsExactly(wantB.toHost());
            }
            b.close();
            c.close();
        }
        try (WhisperModel plain = WhisperModel.load(ModelFiles.open(file), new CpuBackend());
                EncodedAudio a = plain.encode(GreedySteps.randomMel(plain.dims(), 1))) {
            assertThat(plain.holdsKeptWindow(a)).as("a backend without graphs keeps nothing").isFalse();
        }
    }

    @Test
    void theNextWindowReplaysTheCapturedStepAndAWindowOfItsOwnIsCapturedAgain() {
        Path file = tinyModel();
        WhisperDims d = TinyWhisper.EN;
        float[] melA = GreedySteps.randomMel(d, 1);
        float[] melB = GreedySteps.randomMel(d, 2);
        List<List<float[]>> want = eager(file, melA, melB);
        GraphRecordingBackend rec = new GraphRecordingBackend();
        try (WhisperModel m = WhisperModel.load(ModelFiles.open(file), rec.backend())) {
            try (EncodedAudio a = m.encode(melA); DecoderState dec = m.newDecoder(1)) {
                assertSameLogits(GreedySteps.logits(dec, a, d), want.get(0), "first window");
            }
            assertThat(rec.captures()).as("captures of the first dictation").isEqualTo(1);
            assertThat(rec.eagerSteps()).as("eager steps of the first dictation").isEqualTo(1);
            assertThat(m.holdsIdleDecoder()).isTrue();

            try (EncodedAudio b = m.encode(melB); DecoderState dec = m.newDecoder(1)) {
                assertThat(m.holdsKeptWindow(b)).isTrue();
                assertSameLogits(GreedySteps.logits(dec, b, d), want.get(1), "second window, replayed");
            }
            assertThat(rec.captures()).as("captures after the second dictation").isEqualTo(1);
            assertThat(rec.eagerSteps()).as("eager steps after the second dictation").isEqualTo(1);

            // Two windows at once: the second has buffers of its own, so the state captures again, and
            // again when it goes back to the kept window; nothing replays a freed buffer.
            try (EncodedAudio a = m.encode(melA); DecoderState dec = m.newDecoder(1)) {
                try (EncodedAudio b = m.encode(melB)) {
                    assertThat(m.holdsKeptWindow(b)).isFalse();
                    assertSameLogits(GreedySteps.logits(dec, b, d), want.get(1), "a window of its own");
                }
                assertThat(rec.captures()).isEqualTo(2);
                assertSameLogits(GreedySteps.logits(dec, a, d), want.get(0), "the kept window after the other");
                assertThat(rec.captures()).isEqualTo(3);
            }
            try (EncodedAudio b = m.encode(melB); DecoderState dec = m.newDecoder(1)) {
                assertSameLogits(GreedySteps.logits(dec, b, d), want.get(1), "the kept window again");
            }
            assertThat(rec.captures()).as("captures, all told").isEqualTo(3);
        }
        assertThat(rec.liveBuffers()).as("buffers left after the model closed").isZero();
    }

    @Test
    void aStateWhoseCallThrewIsNotKeptAndAClosedOneCannotBeUsed() {
        Path file = tinyModel();
        try (WhisperModel m = WhisperModel.load(ModelFiles.open(file), new CpuBackend(), () -> true);
                EncodedAudio a = m.encode(GreedySteps.randomMel(m.dims(), 1))) {
            DecoderState dec = m.newDecoder(1);
            dec.reset(a, 1);
            float[][] logits = new float[1][m.dims().nVocab()];
            assertThatThrownBy(() -> dec.feed(new int[][] {{-1}}, logits)).hasMessageContaining("outside");
            dec.close();
            assertThat(m.holdsIdleDecoder()).as("a state whose feed threw").isFalse();
            assertThatThrownBy(() -> dec.reset(a, 1)).hasMessageContaining("closed");

            try (DecoderState ok = m.newDecoder(1)) {
                ok.reset(a, 1);
                ok.feed(new int[][] {{50257}}, logits);
            }
            assertThat(m.holdsIdleDecoder()).isTrue();
            try (DecoderState beams = m.newDecoder(5)) {
                beams.reset(a, 5);
            }
            try (DecoderState one = m.newDecoder(1); DecoderState two = m.newDecoder(1)) {
                assertThat(m.holdsIdleDecoder()).as("both greedy states lent").isFalse();
                one.reset(a, 1);
                two.reset(a, 1);
            }
            assertThat(m.holdsIdleDecoder()).as("one of them kept").isTrue();
        }
    }

    @Test
    void dictationsAfterTheFirstCaptureNothingAndGiveThePlainCpusText() throws IOException {
        float[] one = TestData.wav16kMono(TestData.data("toy-en-samples", "sample_01.wav"));
        float[] two = TestData.wav16kMono(TestData.data("toy-en-samples", "sample_02.wav"));
        TranscribeOptions o = TranscribeOptions.defaults();
        String wantOne;
        String wantTwo;
        try (WhisperEngine cpu = WhisperEngine.load(TOY_EN, new CpuBackend())) {
            wantOne = cpu.transcribe(one, o).strippedText();
            wantTwo = cpu.transcribe(two, o).strippedText();
        }
        GraphRecordingBackend rec = new GraphRecordingBackend();
        try (WhisperEngine e = WhisperEngine.load(TOY_EN, rec.backend())) {
            assertThat(e.transcribe(one, o).strippedText()).isEqualTo(wantOne);
            int captures = rec.captures();
            int eager = rec.eagerSteps();
            assertThat(captures).as("captures of the first dictation").isEqualTo(1);
            int replays = rec.replays();
            TranscriptionResult second = e.transcribe(two, o);
            assertThat(second.strippedText()).isEqualTo(wantTwo);
            // An English-only model with timestamps starts from [sot] alone, so every feed is one token:
            // each is one replay, from the first on, and none is a check.
            assertThat(rec.replays() - replays).as("replays of the second dictation")
                    .isEqualTo(second.timings().decodeSteps());
            assertThat(e.transcribe(one, o).strippedText()).isEqualTo(wantOne);
            assertThat(rec.captures()).as("captures of the later dictations").isEqualTo(captures);
            assertThat(rec.eagerSteps()).as("eager steps of the later dictations").isEqualTo(eager);
        }
        assertThat(rec.liveBuffers()).as("buffers left after the engine closed").isZero();
    }

    @Test
    void aLanguageDetectionWindowThatIsNotDecodedIsClosedAndTheKeptBuffersComeBack() throws IOException {
        float[] audio = TestData.wav16kMono(TestData.data("toy-multi-samples", "sample_de_1.wav"));
        GraphRecordingBackend rec = new GraphRecordingBackend();
        Path multi = TestData.model("toy-multi").resolve("ggml-toy-multi-q8_0.bin");
        try (WhisperEngine e = WhisperEngine.load(multi, rec.backend())) {
            // The language is detected on window 0; the clip then starts at 1 s, so that window is not decoded.
            e.transcribe(audio, TranscribeOptions.defaults().withClipTimestamps(1.0));
            WhisperModel m = e.model();
            try (EncodedAudio next = m.encode(GreedySteps.randomMel(m.dims(), 3))) {
                assertThat(m.holdsKeptWindow(next)).as("the next window gets the kept buffers").isTrue();
            }
        }
        assertThat(rec.liveBuffers()).as("buffers left after the engine closed").isZero();
    }

    @Test
    void onceGraphsAreRefusedTheKeptBuffersAndStateAreFreed() {
        Path file = tinyModel();
        AtomicBoolean graphs = new AtomicBoolean(true);
        GraphRecordingBackend rec = new GraphRecordingBackend();
        try (WhisperModel m = WhisperModel.load(ModelFiles.open(file), rec.backend(), graphs::get)) {
            float[] mel = GreedySteps.randomMel(m.dims(), 1);
            int live;
            try (EncodedAudio a = m.encode(mel); DecoderState dec = m.newDecoder(1)) {
                GreedySteps.logits(dec, a, m.dims());
                assertThat(m.holdsKeptWindow(a)).isTrue();
                live = rec.liveBuffers();
                graphs.set(false); // the backend refused graphs meanwhile
            }
            assertThat(m.holdsIdleDecoder()).as("a state given back after the refusal").isFalse();
            assertThat(rec.liveBuffers()).as("buffers of the window and the state freed").isLessThan(live
                    - 2 * m.dims().nTextLayer());
            try (EncodedAudio b = m.encode(mel)) {
                assertThat(m.holdsKeptWindow(b)).isFalse();
            }
        }
        assertThat(rec.liveBuffers()).isZero();
    }
}
