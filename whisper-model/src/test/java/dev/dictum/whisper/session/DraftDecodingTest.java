package dev.dictum.whisper.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.whisper.decode.ProgressListener;
import dev.dictum.whisper.decode.Segment;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.decode.Transcriber;
import dev.dictum.whisper.decode.TranscriptionResult;
import dev.dictum.whisper.format.GenerationConfig;
import dev.dictum.whisper.model.DecoderState;
import dev.dictum.whisper.model.EncodedAudio;
import dev.dictum.whisper.model.ForwardingDecoderState;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.model.WhisperInference;
import dev.dictum.whisper.testutil.TestData;
import dev.dictum.whisper.tokenizer.Vocabulary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The release's draft (issue 12): a transcription given the tokens of an earlier one as a draft
 * checks them in one batched decoder pass, and its transcript is the transcript without a draft —
 * for the exact draft, drafts wrong at the first, a middle or the last token, longer than the
 * result, empty, or from other audio, with timestamps on and off — while the single decoder steps
 * drop to the few after the first wrong token.
 */
class DraftDecodingTest {
    private static final int RATE = 16000;
    @RegisterExtension
    static final ToyEnCpuEngine EN = new ToyEnCpuEngine();

    /** Counts the decoder's single-token steps and batched draft passes. */
    static final class Counting extends DecoderWrappingInference {
        int singleSteps;
        int feedAlls;
        int truncates;

        Counting(WhisperInference m) {
            super(m);
        }

        @Override
        DecoderState wrap(DecoderState decoder) {
            return new ForwardingDecoderState(decoder) {
                @Override
                public void feed(int[][] tokens, float[][] logits) {
                    if (tokens[0].length == 1 && inner.length() > 0) {
                        singleSteps++;
                    }
                    inner.feed(tokens, logits);
                }

                @Override
                public void feedAll(int[] tokens, int from, float[][] logits) {
                    feedAlls++;
                    inner.feedAll(tokens, from, logits);
                }

                @Override
                public void truncate(int length) {
                    truncates++;
                    inner.truncate(length);
                }
            };
        }

    }

    private static TranscriptionResult transcribe(WhisperInference m, float[] audio, TranscribeOptions o, int[] draft) {
        StreamingMelSource mel = new StreamingMelSource(m.dims().nMels());
        mel.push(audio, 0, audio.length);
        mel.finish();
        return new Transcriber(m, EN.get().codec()).transcribe(mel, o, ProgressListener.NONE, new int[0], draft);
    }

    private static TranscribeOptions options(boolean timestamps) {
        TranscribeOptions o = TranscribeOptions.defaults();
        return o.withDecoding(o.decoding().withWithoutTimestamps(!timestamps));
    }

    private static int[] with(int[] t, int... more) {
        int[] out = Arrays.copyOf(t, t.length + more.length);
        System.arraycopy(more, 0, out, t.length, more.length);
        return out;
    }

    /** {@code t} with token {@code at} replaced by another text token. */
    private static int[] wrongAt(int[] t, int at) {
        int[] out = t.clone();
        out[at] = out[at] == 262 ? 263 : 262;
        return out;
    }

    private static List<List<Integer>> segmentTokens(TranscriptionResult r) {
        List<List<Integer>> out = new ArrayList<>();
        for (Segment s : r.segments()) {
            out.add(Arrays.stream(s.tokens()).boxed().toList());
        }
        return out;
    }

    @ParameterizedTest(name = "timestamps {0}")
    @ValueSource(booleans = {false, true})
    void theTranscriptWithAnyDraftIsTheTranscriptWithout(boolean timestamps) throws Exception {
        int eot = EN.get().model().vocabulary().specials().eot();
        TranscribeOptions o = options(timestamps);
        float[] other = TestData.wav16kMono(TestData.data("toy-en-samples", "sample_04.wav"));
        int[] otherTokens = transcribe(EN.get().model(), other, o, null).firstWindowTokens();
        for (String sample : new String[] {"sample_01.wav", "sample_03.wav"}) {
            float[] audio = TestData.wav16kMono(TestData.data("toy-en-samples", sample));
            Counting plain = new Counting(EN.get().model());
            TranscriptionResult want = transcribe(plain, audio, o, null);
            int[] t = want.firstWindowTokens();
            assertThat(t.length).as(sample + ": tokens to draft").isGreaterThanOrEqualTo(6);
            assertThat(plain.feedAlls).isZero();
            // one a token, and without timestamps the sot sequence's last token (fed alone after sot)
            int prompt = timestamps ? 0 : 1;
            assertThat(plain.singleSteps).as("steps without a draft").isEqualTo(t.length + prompt);

            Map<String, int[]> drafts = new LinkedHashMap<>();
            drafts.put("exact", with(t, eot));
            drafts.put("exact, no eot", t);
            drafts.put("wrong first", with(wrongAt(t, 0), eot));
            drafts.put("wrong middle", with(wrongAt(t, t.length / 2), eot));
            drafts.put("wrong last", with(wrongAt(t, t.length - 1), eot));
            drafts.put("longer", with(t, 262, 263, 264, eot));
            drafts.put("prefix (live text of less audio)", Arrays.copyOf(t, t.length / 2));
            drafts.put("empty", new int[0]);
            drafts.put("other audio", with(otherTokens, eot));
            drafts.put("eot first", new int[] {eot, 262, 263});
            for (Map.Entry<String, int[]> d : drafts.entrySet()) {
                String what = sample + ", draft " + d.getKey();
                Counting c = new Counting(EN.get().model());
                TranscriptionResult got = transcribe(c, audio, o, d.getValue());
                assertThat(got.text()).as(what).isEqualTo(want.text());
                assertThat(segmentTokens(got)).as(what).isEqualTo(segmentTokens(want));
                assertThat(got.firstWindowTokens()).as(what).containsExactly(t);
                assertThat(got.timings().draftChecked()).as(what).isBetween(Math.min(1, d.getValue().length),
                        d.getValue().length);
                if (d.getKey().equals("wrong first") || d.getKey().equals("eot first")) {
                    assertThat(c.feedAlls).as(what + ": no pass for a draft wrong from its start").isZero();
                    assertThat(c.singleSteps).as(what).isEqualTo(plain.singleSteps);
                }
            }
            // Steps: none after an exact draft, a few after a wrong one (the rest is checked again in one pass).
            Counting exact = new Counting(EN.get().model());
            TranscriptionResult e = transcribe(exact, audio, o, with(t, eot));
            assertThat(exact.singleSteps).as(sample + ": steps after the exact draft").isEqualTo(prompt);
            assertThat(exact.feedAlls).isEqualTo(1);
            assertThat(e.timings().draftAccepted()).isEqualTo(t.length + 1);
            assertThat(e.timings().decodeSteps()).as("sot, the prompt's rest, one pass").isEqualTo(2 + prompt);
            Counting middle = new Counting(EN.get().model());
            TranscriptionResult m = transcribe(middle, audio, o, with(wrongAt(t, t.length / 2), eot));
            assertThat(middle.singleSteps - prompt + middle.feedAlls)
                    .as(sample + ": decoder calls after a wrong middle token").isLessThanOrEqualTo(2);
            assertThat(m.timings().draftAccepted()).isEqualTo(t.length);
            Counting last = new Counting(EN.get().model());
            transcribe(last, audio, o, with(wrongAt(t, t.length - 1), eot));
            assertThat(last.singleSteps).as(sample + ": steps after a wrong last token").isEqualTo(1 + prompt);
            Counting prefix = new Counting(EN.get().model());
            TranscriptionResult p = transcribe(prefix, audio, o, Arrays.copyOf(t, t.length / 2));
            assertThat(prefix.singleSteps).as(sample + ": steps after a half draft")
                    .isEqualTo(t.length - t.length / 2 + prompt);
            assertThat(p.timings().draftAccepted()).isEqualTo(t.length / 2);
            Counting empty = new Counting(EN.get().model());
            TranscriptionResult none = transcribe(empty, audio, o, new int[0]);
            assertThat(empty.feedAlls).isZero();
            assertThat(none.timings().draftChecked()).isZero();
        }
    }

    @Test
    void aDraftIsNotUsedWhereTheDecisionIsNotAnArgmaxOfOneSequence() throws Exception {
        float[] audio = TestData.wav16kMono(TestData.data("toy-en-samples", "sample_01.wav"));
        TranscribeOptions o = options(false);
        int[] t = transcribe(EN.get().model(), audio, o, null).firstWindowTokens();
        TranscribeOptions beam = o.withDecoding(o.decoding().withBeamSize(2));
        TranscribeOptions hot = o.withTemperatures(0.4);
        for (TranscribeOptions x : List.of(beam, hot)) {
            Counting c = new Counting(EN.get().model());
            TranscriptionResult want = transcribe(EN.get().model(), audio, x, null);
            TranscriptionResult got = transcribe(c, audio, x, t);
            assertThat(c.feedAlls).isZero();
            assertThat(got.text()).isEqualTo(want.text());
            assertThat(got.timings().draftChecked()).isZero();
        }
    }

    /**
     * The session: the release's run takes the live text of the same open piece as its draft, accepts
     * most of it, and its text is the from-scratch text; a piece cut since then has another start and
     * gets none.
     */
    @Test
    void theReleaseChecksTheLiveTextAsADraftAndGivesTheFromScratchText() throws Exception {
        TranscribeOptions o = DictationSessionTest.options();
        float[] a = TestData.wav16kMono(TestData.data("toy-en-samples", "sample_03.wav"));
        Semaphore made = new Semaphore(0);
        DictationSession s = new DictationSession(EN.get().model(), EN.get().codec(), o, null, text -> made.release());
        float[] head = Arrays.copyOf(a, a.length - RATE / 4); // all but the last 0.25 s: the live text's audio
        s.feed(head);
        assertThat(made.tryAcquire(60, TimeUnit.SECONDS)).as("live text made").isTrue();
        s.feed(Arrays.copyOfRange(a, head.length, a.length));
        TranscriptionResult r = s.finish();
        DictationSession.Release how = s.release();
        TranscriptionResult scratch = EN.get().transcribe(a, o);
        assertThat(r.text()).isEqualTo(scratch.text());
        assertThat(how.speculative()).isFalse();
        assertThat(how.draftChecked()).as("draft checked").isPositive();
        assertThat(how.draftAccepted()).as("draft accepted").isPositive();
        // The accepted draft was checked in one pass: fewer decoder calls than decoding step by step.
        assertThat(how.decodeSteps()).isLessThan(scratch.timings().decodeSteps());
        assertThat(how.melNanos()).isPositive();
        assertThat(how.handoffNanos()).isPositive();
        assertThat(how.busyAtFinish()).isIn("idle", "partial");
    }
}
