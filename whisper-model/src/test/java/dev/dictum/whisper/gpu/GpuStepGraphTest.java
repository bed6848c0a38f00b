package dev.dictum.whisper.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dictum.gpu.Backends;
import dev.dictum.gpu.backend.GpuBackend;
import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.gpu.device.FaultInjectingDriver;
import dev.dictum.gpu.device.GpuDriver;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.decode.TranscriptionResult;
import dev.dictum.whisper.mel.LogMel;
import dev.dictum.whisper.model.DecoderState;
import dev.dictum.whisper.model.EncodedAudio;
import dev.dictum.whisper.model.WhisperModel;
import dev.dictum.whisper.session.WhisperEngine;
import dev.dictum.whisper.testutil.TestData;
import dev.dictum.whisper.tokenizer.SpecialTokens;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The greedy decoder step as one CUDA graph (issue 12): replayed, it gives the eager step's logits
 * bit for bit at every position of a whole decode, and the same transcript; later dictations on the
 * same model replay the first one's graph without capturing again; where capturing,
 * instantiating or replaying fails, decoding falls back to eager steps with the same transcript.
 */
class GpuStepGraphTest {
    private static final Path MODEL = TestData.model("toy-en/ggml-toy-en-q8_0.bin");
    private static final Path WAV = TestData.data("toy-en-samples", "sample_01.wav");

    private static GpuDriver driver(String api) {
        assumeTrue(Files.isRegularFile(MODEL) && Files.isRegularFile(WAV), "skipped: toy-en q8_0 is missing");
        try (GpuBackend probe = Backends.openGpu(api)) {
            return probe.driver();
        } catch (IllegalArgumentException e) {
            assumeTrue(false, "skipped: no GPU (" + e.getMessage() + ")");
            throw e;
        }
    }

    private static String transcribe(WhisperEngine e, float[] audio) {
        return e.transcribe(audio, TranscribeOptions.defaults()).strippedText();
    }

    /** Logits of every greedy step (argmax fed back) from the prompt to the end of the text context. */
    private static List<float[]> greedyLogits(WhisperModel m, float[] audio) {
        SpecialTokens sp = m.vocabulary().specials();
        int[] prompt = {sp.sot(), sp.noTimestamps()};
        List<float[]> out = new ArrayList<>();
        try (EncodedAudio enc = m.encode(new LogMel(m.dims().nMels()).window(audio));
                DecoderState state = m.newDecoder(1)) {
            float[][] logits = new float[1][m.dims().nVocab()];
            state.reset(enc, 1);
            state.feed(new int[][] {prompt}, logits);
            while (state.length() < m.dims().nTextCtx() && out.size() < 200) {
                int best = 0;
                for (int i = 1; i < logits[0].length; i++) {
                    best = logits[0][i] > logits[0][best] ? i : best;
                }
                state.feed(new int[][] {{best}}, logits);
                out.add(logits[0].clone());
            }
        }
        return out;
    }

    @Test
    void theReplayedStepGivesTheEagerLogitsAtEveryPositionAndTheSameTranscript() throws Exception {
        GpuDriver real = driver("cuda");
        float[] audio = TestData.wav16kMono(WAV);
        FaultInjectingDriver counting = new FaultInjectingDriver(real, "graphLaunch", Integer.MAX_VALUE);
        GpuBackend graphs = new GpuBackend(counting, 0);
        GpuBackend eager = new GpuBackend(real, 0);
        eager.refuseGraphs("test: eager steps");
        try (WhisperEngine g = WhisperEngine.load(MODEL, graphs); WhisperEngine e = WhisperEngine.load(MODEL, eager)) {
            List<float[]> want = greedyLogits(e.model(), audio);
            List<float[]> got = greedyLogits(g.model(), audio);
            assertThat(graphs.graphsRefused()).as("graphs refused").isNull();
            assertThat(counting.calls()).as("graph launches").isGreaterThanOrEqualTo(want.size());
            assertThat(got).hasSameSizeAs(want);
            for (int i = 0; i < want.size(); i++) {
                assertThat(got.get(i)).as("logits of step %d", i).containsExactly(want.get(i));
            }
            int before = counting.calls();
            assertThat(transcribe(g, audio)).isEqualTo(transcribe(e, audio));
            assertThat(counting.calls()).as("graph launches while transcribing").isGreaterThan(before);
        }
    }

    /**
     * Issue 12, graph reuse: the model keeps the window buffers and the greedy state a captured step
     * names, so dictations after the first replay that graph from their first token (no eager step,
     * no capture, no check replay) and give the eager backend's transcripts.
     */
    @Test
    void dictationsAfterTheFirstReplayTheFirstOnesGraphAndCaptureNothing() throws Exception {
        GpuDriver real = driver("cuda");
        List<float[]> audios = new ArrayList<>();
        for (String wav : new String[] {"sample_01.wav", "sample_02.wav", "sample_03.wav", "sample_01.wav"}) {
            audios.add(TestData.wav16kMono(TestData.data("toy-en-samples", wav)));
        }
        FaultInjectingDriver launches = new FaultInjectingDriver(real, "graphLaunch", Integer.MAX_VALUE);
        FaultInjectingDriver captures = new FaultInjectingDriver(launches, "streamBeginCapture", Integer.MAX_VALUE);
        GpuBackend graphs = new GpuBackend(captures, 0);
        GpuBackend eager = new GpuBackend(real, 0);
        eager.refuseGraphs("test: eager steps");
        try (WhisperEngine g = WhisperEngine.load(MODEL, graphs); WhisperEngine e = WhisperEngine.load(MODEL, eager)) {
            TranscribeOptions o = TranscribeOptions.defaults();
            assertThat(g.transcribe(audios.get(0), o).strippedText()).isEqualTo(transcribe(e, audios.get(0)));
            assertThat(captures.calls()).as("captures of the first dictation").isEqualTo(1);
            for (int i = 1; i < audios.size(); i++) {
                int before = launches.calls();
                TranscriptionResult r = g.transcribe(audios.get(i), o);
                assertThat(r.strippedText()).as("dictation %d", i + 1).isEqualTo(transcribe(e, audios.get(i)));
                // English-only with timestamps: every feed is one token, so each is one replay.
                assertThat(launches.calls() - before).as("graph launches of dictation %d", i + 1)
                        .isEqualTo(r.timings().decodeSteps());
            }
            assertThat(captures.calls()).as("captures after four dictations").isEqualTo(1);
            assertThat(graphs.graphsRefused()).as("graphs refused").isNull();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"streamBeginCapture", "graphInstantiate", "graphLaunch"})
    void aGraphCallThatFailsLeavesEagerStepsAndTheSameTranscript(String call) throws Exception {
        GpuDriver real = driver("cuda");
        float[] audio = TestData.wav16kMono(WAV);
        String want;
        try (WhisperEngine cpu = WhisperEngine.load(MODEL, new CpuBackend())) {
            want = transcribe(cpu, audio);
        }
        FaultInjectingDriver faulty = new FaultInjectingDriver(real, call, 1);
        GpuBackend gpu = new GpuBackend(faulty, 0);
        try (WhisperEngine e = WhisperEngine.load(MODEL, gpu)) {
            assertThat(transcribe(e, audio)).isEqualTo(want);
            assertThat(faulty.fired()).isTrue();
            assertThat(gpu.graphsRefused()).contains(call);
            int calls = faulty.calls();
            assertThat(transcribe(e, audio)).as("the second transcription, eager").isEqualTo(want);
            assertThat(faulty.calls()).as("no graph call after the refusal").isEqualTo(calls);
        }
    }

    @Test
    void hipSaysItsStepsRunEagerly() {
        GpuDriver hip = driver("hip");
        try (GpuBackend gpu = new GpuBackend(hip, 0)) {
            assertThat(gpu.graphsRefused()).isEqualTo("hip graphs are not used");
        }
    }
}
