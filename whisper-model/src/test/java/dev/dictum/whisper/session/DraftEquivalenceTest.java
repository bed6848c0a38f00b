package dev.dictum.whisper.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.whisper.decode.DecodingTask;
import dev.dictum.whisper.decode.ProgressListener;
import dev.dictum.whisper.decode.Segment;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.decode.Transcriber;
import dev.dictum.whisper.decode.TranscriptionResult;
import dev.dictum.whisper.mel.LogMel;
import dev.dictum.whisper.model.DecoderState;
import dev.dictum.whisper.model.EncodedAudio;
import dev.dictum.whisper.testutil.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Drafts never change the text (issue 23): for every sample of toy-en and toy-multi and 20 random
 * drafts each (the no-draft tokens cut, changed, shifted, extended, or random), the transcript, every
 * segment's tokens and the temperature each window was decoded at (the fallback's decisions) are those
 * of no draft. Where a drafted position's top two logits are closer than DecodingTask's tie margin the
 * decision is re-made from a single step; the batched pass's largest logit difference from single
 * steps, measured here on the no-draft tokens of every sample, must stay under a quarter of that margin.
 */
class DraftEquivalenceTest {
    private static final int DRAFTS = 20;
    /** DecodingTask.DRAFT_TIE_MARGIN. */
    private static final float MARGIN = 0.05f;

    @ParameterizedTest(name = "{0}")
    @CsvSource({"toy-en, ggml-toy-en.bin, toy-en-samples", "toy-multi, '', toy-multi-samples"})
    void draftsNeverChangeTheTextOrTheFallbackDecisions(String name, String file, String samples) throws Exception {
        Random random = new Random(23);
        try (WhisperEngine e = WhisperEngine.load(TestData.model(name).resolve(file), new CpuBackend())) {
            TranscribeOptions o = TranscribeOptions.defaults();
            o = o.withDecoding(o.decoding().withWithoutTimestamps(true));
            int vocab = e.model().dims().nVocab();
            double worst = 0;
            List<Path> wavs;
            try (var files = Files.list(TestData.data(samples))) {
                wavs = files.filter(f -> f.toString().endsWith(".wav")).sorted().toList();
            }
            for (Path wav : wavs) {
                float[] audio = TestData.wav16kMono(wav);
                TranscriptionResult want = transcribe(e, audio, o, null);
                int[] tokens = want.firstWindowTokens();
                worst = Math.max(worst, batchedError(e, audio, tokens));
                for (int d = 0; d < DRAFTS; d++) {
                    int[] draft = randomDraft(random, tokens, vocab, e.model().vocabulary().specials().eot());
                    TranscriptionResult got = transcribe(e, audio, o, draft);
                    String what = wav.getFileName() + " draft " + Arrays.toString(draft);
                    assertThat(got.text()).as(what).isEqualTo(want.text());
                    assertThat(decisions(got)).as(what).isEqualTo(decisions(want));
                }
            }
            System.out.printf("%s: batched pass vs single steps, largest logit difference %.2e%n", name, worst);
            assertThat(worst).as("the batched pass's error against the tie margin").isLessThan(MARGIN / 4);
        }
    }

    private static TranscriptionResult transcribe(WhisperEngine e, float[] audio, TranscribeOptions o, int[] draft) {
        StreamingMelSource mel = new StreamingMelSource(e.model().dims().nMels());
        mel.push(audio, 0, audio.length);
        mel.finish();
        return new Transcriber(e.model(), e.codec()).transcribe(mel, o, ProgressListener.NONE, new int[0], draft);
    }

    /** Every segment's tokens and the temperature it was decoded at. */
    private static List<String> decisions(TranscriptionResult r) {
        List<String> out = new ArrayList<>();
        for (Segment s : r.segments()) {
            out.add(s.temperature() + " " + Arrays.toString(s.tokens()));
        }
        return out;
    }

    /** One of five kinds of draft: cut short, one token changed, shifted by one, extended, or random text. */
    private static int[] randomDraft(Random random, int[] t, int vocab, int eot) {
        int textTokens = Math.min(eot, vocab);
        return switch (random.nextInt(5)) {
            case 0 -> Arrays.copyOf(t, random.nextInt(t.length + 1));
            case 1 -> {
                int[] c = t.clone();
                if (c.length > 0) {
                    c[random.nextInt(c.length)] = random.nextInt(textTokens);
                }
                yield c;
            }
            case 2 -> t.length < 2 ? t.clone() : Arrays.copyOfRange(t, 1, t.length);
            case 3 -> {
                int[] c = Arrays.copyOf(t, t.length + 1 + random.nextInt(5));
                for (int i = t.length; i < c.length; i++) {
                    c[i] = random.nextInt(textTokens);
                }
                yield c;
            }
            default -> random.ints(1 + random.nextInt(12), 0, textTokens).toArray();
        };
    }

    /** The largest |logit| difference between one batched pass over {@code tokens} and single steps. */
    private static double batchedError(WhisperEngine e, float[] audio, int[] tokens) {
        if (tokens.length < 2) {
            return 0;
        }
        int vocab = e.model().dims().nVocab();
        int[] prompt = {e.model().vocabulary().specials().sot()};
        float[] mel = new LogMel(e.model().dims().nMels()).window(audio);
        try (EncodedAudio enc = e.model().encode(mel); DecoderState batched = e.model().newDecoder(1);
                DecoderState single = e.model().newDecoder(1)) {
            float[][] l = new float[1][vocab];
            batched.reset(enc, 1);
            batched.feed(new int[][] {prompt}, l);
            float[][] all = new float[tokens.length][vocab];
            batched.feedAll(tokens, 0, all);
            single.reset(enc, 1);
            single.feed(new int[][] {prompt}, l);
            double worst = 0;
            for (int i = 0; i < tokens.length; i++) {
                single.feed(new int[][] {{tokens[i]}}, l);
                for (int v = 0; v < vocab; v++) {
                    worst = Math.max(worst, Math.abs(all[i][v] - l[0][v]));
                }
            }
            return worst;
        }
    }
}
