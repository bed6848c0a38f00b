package dev.dictum.whisper.gpu;

import static dev.dictum.whisper.testutil.ToyEnGpu.MODEL;
import static dev.dictum.whisper.testutil.ToyEnGpu.WAV;
import static dev.dictum.whisper.testutil.ToyEnGpu.driver;
import static org.assertj.core.api.Assertions.assertThat;

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
    /** A graph-capturing backend over {@code real} that counts its graph launches and its stream captures. */
    private record CountedGraphs(FaultInjectingDriver launches, FaultInjectingDriver captures, GpuBackend backend) {
        static CountedGraphs over(GpuDriver real) {
            FaultInjectingDriver launches = new FaultInjectingDriver(real, "graphLaunch", Integer.MAX_VALUE);
            FaultInjectingDriver captures = new FaultInjectingDriver(launches, "streamBeginCapture", Integer.MAX_VALUE);
            return new CountedGraphs(launches, captures, new GpuBackend(captures, 0));
        }
    }

    /** A backend over {@code real} that refuses graphs: every step eager, the reference. */
    private static GpuBackend eager(GpuDriver real) {
        GpuBackend eager = new GpuBackend(real, 0);
        eager.refuseGraphs("test: eager steps");
        return eager;
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
        try (WhisperEngine g = WhisperEngine.load(MODEL, graphs);
                WhisperEngine e = WhisperEngine.load(MODEL, eager(real))) {
            List<float[]> want = greedyLogits(e.model(), audio);
            List<float[]> got = greedyLogits(g.model(), audio);
            assertThat(graphs.graphsRefused()).as("graphs refused").isNull();
            assertThat(counting.calls()).as("graph launches").isGreaterThanOrEqualTo(want.size());
            assertThat(got).hasSameSizeAs(want);
            for (int i = 0; i < want.size(); i++) {
                float[] gotRow = got.get(i);
                float[] wantRow = want.get(i);
                int step = i;
                assertThat(java.util.Arrays.mismatch(gotRow, wantRow)) // containsExactly: minutes to fail
                        .as(() -> "logits of step " + step + ": first element that differs (-1: none), "
                                + "‖got−want‖/‖want‖ = " + relativeError(gotRow, wantRow)).isEqualTo(-1);
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
        CountedGraphs graphs = CountedGraphs.over(real);
        FaultInjectingDriver launches = graphs.launches();
        FaultInjectingDriver captures = graphs.captures();
        try (WhisperEngine g = WhisperEngine.load(MODEL, graphs.backend());
                WhisperEngine e = WhisperEngine.load(MODEL, eager(real))) {
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
            assertThat(graphs.backend().graphsRefused()).as("graphs refused").isNull();
        }
    }

    /**
     * The release's draft check (issue 12): a batched pass over a draft, then a truncate back to the
     * accepted tokens, then captured steps: the replayed steps read their position and key count from
     * the step buffer, so they give what a state that never saw the rejected tokens gives (the eager
     * backend, fed one token at a time), and the graph is neither dropped nor captured again.
     */
    @Test
    void afterATruncateTheReplayedStepGivesTheLogitsOfAStateThatNeverSawTheDroppedTokens() throws Exception {
        GpuDriver real = driver("cuda");
        float[] audio = TestData.wav16kMono(WAV);
        CountedGraphs graphs = CountedGraphs.over(real);
        FaultInjectingDriver launches = graphs.launches();
        FaultInjectingDriver captures = graphs.captures();
        try (WhisperEngine g = WhisperEngine.load(MODEL, graphs.backend());
                WhisperEngine e = WhisperEngine.load(MODEL, eager(real))) {
            SpecialTokens sp = g.model().vocabulary().specials();
            int vocab = g.model().dims().nVocab();
            int[] prompt = {sp.sot(), sp.noTimestamps()};
            int[] draft = {262, 318, 257, 1332, 286, 262, 3288, 1080, 13, 383, 318, 257};
            int keep = 5;
            int[] after = {464, 2068, 7586, 21831};
            float[] mel = new LogMel(g.model().dims().nMels()).window(audio);
            try (EncodedAudio ga = g.model().encode(mel); EncodedAudio ea = e.model().encode(mel);
                    DecoderState gs = g.model().newDecoder(1); DecoderState es = e.model().newDecoder(1)) {
                float[][] l = new float[1][vocab];
                gs.reset(ga, 1);
                gs.feed(new int[][] {prompt}, l);
                gs.feed(new int[][] {{draft[0]}}, l); // a step first: the graph is captured before the draft
                int captured = captures.calls();
                float[][] all = new float[draft.length - 1][vocab];
                gs.feedAll(java.util.Arrays.copyOfRange(draft, 1, draft.length), 0, all);
                gs.truncate(prompt.length + keep);
                es.reset(ea, 1);
                es.feed(new int[][] {prompt}, l);
                for (int i = 0; i < keep; i++) {
                    es.feed(new int[][] {{draft[i]}}, l);
                    if (i > 0) {
                        // The batched pass's logits after draft[i] are those of the eager single step.
                        assertThat(relativeError(all[i - 1], l[0])).as("batched pass, draft token %d", i)
                                .isLessThan(1e-3);
                    }
                }
                float[][] a = new float[1][vocab];
                float[][] b = new float[1][vocab];
                int before = launches.calls();
                for (int t : after) {
                    gs.feed(new int[][] {{t}}, a);
                    es.feed(new int[][] {{t}}, b);
                    assertThat(relativeError(a[0], b[0])).as("after the truncate, token %d", t).isLessThan(1e-3);
                }
                assertThat(launches.calls() - before).as("replays after the truncate").isEqualTo(after.length);
                assertThat(captures.calls()).as("captures after the truncate").isEqualTo(captured);
            }
        }
    }

    /**
     * The release's draft on the GPU (issue 12): a transcription given the tokens of the same audio's
     * transcription as a draft (exact, wrong in the middle, wrong at the first token) checks them in
     * one batched pass and gives the text of no draft; the exact one is accepted whole.
     */
    @Test
    void aDraftCheckedInOneBatchedPassGivesTheTextOfNoDraft() throws Exception {
        GpuDriver real = driver("cuda");
        float[] audio = TestData.wav16kMono(WAV);
        try (WhisperEngine g = WhisperEngine.load(MODEL, new GpuBackend(real, 0))) {
            TranscribeOptions o = TranscribeOptions.defaults();
            o = o.withDecoding(o.decoding().withWithoutTimestamps(true));
            float[] window = new LogMel(g.model().dims().nMels()).window(audio);
            dev.dictum.whisper.decode.MelWindowSource mel = new dev.dictum.whisper.decode.MelWindowSource() {
                @Override
                public int melBins() {
                    return g.model().dims().nMels();
                }

                @Override
                public int totalFrames() {
                    return audio.length / 160;
                }

                @Override
                public float[] window(int seekFrame) {
                    return window.clone(); // one window: without timestamps the seek moves past it
                }

                @Override
                public void discardBefore(int frame) {
                }
            };
            dev.dictum.whisper.decode.Transcriber t = new dev.dictum.whisper.decode.Transcriber(g.model(), g.codec());
            TranscriptionResult want = t.transcribe(mel, o, dev.dictum.whisper.decode.ProgressListener.NONE, new int[0]);
            int[] tokens = want.firstWindowTokens();
            assertThat(tokens.length).isGreaterThanOrEqualTo(4);
            int eot = g.model().vocabulary().specials().eot();
            int[] exact = java.util.Arrays.copyOf(tokens, tokens.length + 1);
            exact[tokens.length] = eot;
            int[] middle = exact.clone();
            middle[tokens.length / 2] = middle[tokens.length / 2] == 262 ? 263 : 262;
            int[] first = exact.clone();
            first[0] = first[0] == 262 ? 263 : 262;
            for (int[] draft : List.of(exact, middle, first)) {
                TranscriptionResult got = t.transcribe(mel, o, dev.dictum.whisper.decode.ProgressListener.NONE,
                        new int[0], draft);
                assertThat(got.text()).as("draft %s", java.util.Arrays.toString(draft)).isEqualTo(want.text());
                assertThat(got.firstWindowTokens()).containsExactly(tokens);
                assertThat(got.timings().draftChecked()).isPositive();
            }
            TranscriptionResult e = t.transcribe(mel, o, dev.dictum.whisper.decode.ProgressListener.NONE, new int[0],
                    exact);
            assertThat(e.timings().draftAccepted()).isEqualTo(exact.length);
            assertThat(e.timings().decodeSteps()).as("sot, notimestamps, then one pass").isEqualTo(3);
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

    /** ‖got − want‖ / ‖want‖. */
    private static double relativeError(float[] got, float[] want) {
        double d = 0;
        double n = 0;
        for (int i = 0; i < want.length; i++) {
            d += (got[i] - (double) want[i]) * (got[i] - want[i]);
            n += (double) want[i] * want[i];
        }
        return Math.sqrt(d / n);
    }
}
