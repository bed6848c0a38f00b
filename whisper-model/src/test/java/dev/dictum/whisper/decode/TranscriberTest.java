package dev.dictum.whisper.decode;

import static dev.dictum.whisper.decode.ToyCodec.ALPHA;
import static dev.dictum.whisper.decode.ToyCodec.BRAVO;
import static dev.dictum.whisper.decode.ToyCodec.CHARLIE;
import static dev.dictum.whisper.decode.ToyCodec.DELTA;
import static dev.dictum.whisper.decode.ToyCodec.ECHO;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import dev.dictum.whisper.tokenizer.SpecialTokens;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TranscriberTest {
    private static final SpecialTokens SP = SpecialTokens.forVocabSize(51864);
    private static final int EOT = SP.eot();

    private static int ts(int step) {
        return SP.timestampBegin() + step;
    }

    private final List<int[]> progress = new ArrayList<>();

    private TranscriptionResult transcribe(FakeWhisper model, FakeMelSource mel, TranscribeOptions options) {
        return new Transcriber(model, new ToyCodec(model.sp.eot())).transcribe(mel, options,
                (done, total) -> progress.add(new int[] {done, total}));
    }

    /** The tokens of the first feed after each decoding reset: what the decoder was primed with. */
    private static List<int[]> primes(FakeWhisper model) {
        List<int[]> out = new ArrayList<>();
        boolean afterReset = false;
        int feed = 0;
        for (String e : model.log) {
            if (e.startsWith("reset")) {
                afterReset = true;
            } else if (e.startsWith("feed")) {
                if (afterReset) {
                    out.add(model.feeds.get(feed)[0]);
                }
                afterReset = false;
                feed++;
            }
        }
        return out;
    }

    @Test
    void seekLoopFollowsTheLastTimestampAndSplitsOnConsecutiveTimestamps() {
        FakeWhisper model = FakeWhisper.english(Scripts.plan(0, Map.of(
                // two closed segments, then unfinished text: the next window starts at 10.00
                0, new int[] {ts(0), ALPHA, ts(250), ts(250), BRAVO, ts(500), ts(500), CHARLIE},
                // a pair, then a segment closed by a single timestamp: no speech after it, skip the window
                1000, new int[] {ts(0), CHARLIE, ts(100), ts(100), DELTA, ts(400)},
                // the last 5 s: no consecutive timestamps, one segment up to its last timestamp
                4000, new int[] {ts(0), ECHO, ts(250)})));
        FakeMelSource mel = new FakeMelSource(4500, false);

        TranscriptionResult r = transcribe(model, mel, TranscribeOptions.defaults());

        assertThat(r.segments()).extracting(Segment::id, Segment::seek, Segment::start, Segment::end, Segment::text)
                .containsExactly(
                        tuple(0, 0, 0.0, 5.0, " alpha"),
                        tuple(1, 0, 5.0, 10.0, " bravo"),
                        tuple(2, 1000, 10.0, 12.0, " charlie"),
                        tuple(3, 1000, 12.0, 18.0, " delta"),
                        tuple(4, 4000, 40.0, 45.0, " echo"));
        assertThat(r.segments().get(1).tokens()).containsExactly(ts(250), BRAVO, ts(500));
        assertThat(r.segments().get(3).tokens()).containsExactly(ts(100), DELTA, ts(400));
        assertThat(r.segments().get(3).tokenProbabilities()).hasSize(3);
        assertThat(r.text()).isEqualTo(" alpha bravo charlie delta echo");
        assertThat(r.strippedText()).isEqualTo("alpha bravo charlie delta echo");
        assertThat(r.language()).isEqualTo("en");
        assertThat(mel.requested).containsExactly(0, 1000, 4000);
        assertThat(mel.discarded).containsExactly(1000, 4000, 4500);
        assertThat(progress).containsExactly(new int[] {1000, 4500}, new int[] {4000, 4500}, new int[] {4500, 4500});

        // the previous windows' segment tokens are the prompt (the dropped "charlie" is not)
        List<int[]> primes = primes(model);
        assertThat(primes.get(0)).containsExactly(SP.sot());
        assertThat(primes.get(1)).containsExactly(SP.startOfPrev(), ts(0), ALPHA, ts(250), ts(250), BRAVO, ts(500),
                SP.sot());
        assertThat(primes.get(2)).hasSize(1 + 6 + 6 + 1);

        // the last window holds 500 frames of content and is encoded as the source gives it: past the
        // content the source has the log-mel of the zero padding (this fake: its constant), not zeros
        float[] last = model.encodedWindows.get(2);
        assertThat(last[499]).isEqualTo(1f);
        assertThat(last[500]).isEqualTo(1f);
        assertThat(last[2999]).isEqualTo(1f);
        assertThat(last[3000 + 500]).isEqualTo(1f);
        assertThat(model.encodedWindows.get(0)[2999]).isEqualTo(1f);
        assertThat(r.timings().encodedWindows()).isEqualTo(3);
        assertThat(r.timings().decodeSteps()).isEqualTo(model.feeds.size());
    }

    private static FakeWhisper.Script noTimestampWindows() {
        return Scripts.plan(1, Map.of(0, new int[] {ALPHA}, 3000, new int[] {BRAVO, CHARLIE}, 6000,
                new int[] {DELTA}));
    }

    private static TranscribeOptions withoutTimestamps() {
        TranscribeOptions d = TranscribeOptions.defaults();
        return d.withDecoding(d.decoding().withWithoutTimestamps(true));
    }

    @Test
    void withoutTimestampsEveryWindowIsOneSegmentAndTheSeekMovesAWholeWindow() {
        FakeWhisper model = FakeWhisper.english(noTimestampWindows());
        TranscriptionResult r = transcribe(model, new FakeMelSource(7000, false), withoutTimestamps());

        assertThat(r.segments()).extracting(Segment::start, Segment::end, Segment::text).containsExactly(
                tuple(0.0, 30.0, " alpha"), tuple(30.0, 60.0, " bravo charlie"), tuple(60.0, 70.0, " delta"));
        assertThat(r.text()).isEqualTo(" alpha bravo charlie delta");
        assertThat(primes(model).get(2)).containsExactly(SP.startOfPrev(), ALPHA, BRAVO, CHARLIE, SP.sot());
    }

    @Test
    void aStreamingSourceOfUnknownLengthGivesTheSameResult() {
        FakeWhisper model = FakeWhisper.english(noTimestampWindows());
        TranscriptionResult r = transcribe(model, new FakeMelSource(7000, true), withoutTimestamps());

        assertThat(r.segments()).extracting(Segment::start, Segment::end).containsExactly(tuple(0.0, 30.0),
                tuple(30.0, 60.0), tuple(60.0, 70.0));
        assertThat(progress).containsExactly(new int[] {3000, -1}, new int[] {6000, -1}, new int[] {7000, 7000});
    }

    @Test
    void silentWindowsAreSkippedAndLeaveNoPrompt() {
        FakeWhisper.Script speech = noTimestampWindows();
        FakeWhisper model = FakeWhisper.english((c, out) -> {
            if (c.audio() == 3000) {
                // no_speech_prob 0.9 and avg logprob ln .3 < -1: silence
                if (c.atSot()) {
                    Logits.probabilities(out, Map.of(SP.noSpeech(), 0.9, 9, 0.1));
                } else {
                    Logits.probabilities(out, Map.of(c.history().length == 2 ? BRAVO : EOT, 0.3, 11, 0.25, 12,
                            0.25, 13, 0.2));
                }
            } else {
                speech.logits(c, out);
            }
        });
        TranscriptionResult r = transcribe(model, new FakeMelSource(7000, false), withoutTimestamps());

        assertThat(r.segments()).extracting(Segment::start, Segment::text).containsExactly(tuple(0.0, " alpha"),
                tuple(60.0, " delta"));
        assertThat(primes(model).get(2)).containsExactly(SP.startOfPrev(), ALPHA, SP.sot());
        assertThat(model.resetBatches).hasSize(3); // no temperature fallback on the silent window
        assertThat(progress).extracting(p -> p[0]).containsExactly(3000, 6000, 7000);
    }

    @Test
    void aHighNoSpeechProbabilityWithAConfidentDecodingIsKept() {
        FakeWhisper model = FakeWhisper.english((c, out) -> {
            if (c.atSot()) {
                Logits.probabilities(out, Map.of(SP.noSpeech(), 0.9, 9, 0.1));
            } else {
                out[c.history().length == 2 ? BRAVO : EOT] = 0f;
            }
        });
        TranscriptionResult r = transcribe(model, new FakeMelSource(1000, false), withoutTimestamps());
        assertThat(r.segments()).extracting(Segment::text).containsExactly(" bravo");
        assertThat(r.segments().get(0).noSpeechProb()).isCloseTo(0.9, within(1e-6));
    }

    @Test
    void aHotTemperatureResetsThePrompt() {
        FakeWhisper model = FakeWhisper.english(noTimestampWindows());
        TranscriptionResult r = transcribe(model, new FakeMelSource(7000, false),
                withoutTimestamps().withTemperatures(0.6));
        assertThat(r.segments()).extracting(Segment::temperature).containsExactly(0.6, 0.6, 0.6);
        assertThat(primes(model)).allSatisfy(p -> assertThat(p).containsExactly(SP.sot()));

        FakeWhisper warm = FakeWhisper.english(noTimestampWindows());
        transcribe(warm, new FakeMelSource(7000, false), withoutTimestamps().withTemperatures(0.4));
        assertThat(primes(warm).get(1)).containsExactly(SP.startOfPrev(), ALPHA, SP.sot());
    }

    @Test
    void conditionOnPreviousTextOffMeansNoPrompt() {
        FakeWhisper model = FakeWhisper.english(noTimestampWindows());
        transcribe(model, new FakeMelSource(7000, false), withoutTimestamps().withConditionOnPreviousText(false));
        assertThat(primes(model)).allSatisfy(p -> assertThat(p).containsExactly(SP.sot()));
    }

    @Test
    void theInitialPromptPrimesTheFirstWindowButIsNotPartOfTheText() {
        FakeWhisper model = FakeWhisper.english(noTimestampWindows());
        TranscriptionResult r = transcribe(model, new FakeMelSource(7000, false),
                withoutTimestamps().withInitialPrompt("  echo t77 "));
        assertThat(primes(model).get(0)).containsExactly(SP.startOfPrev(), ECHO, 77, SP.sot());
        assertThat(primes(model).get(1)).containsExactly(SP.startOfPrev(), ECHO, 77, ALPHA, SP.sot());
        assertThat(r.text()).isEqualTo(" alpha bravo charlie delta");
    }

    @Test
    void clipTimestampsLimitTheWindowsToTheClip() {
        FakeWhisper model = FakeWhisper.english(Scripts.plan(1, Map.of(1000, new int[] {ECHO})));
        TranscriptionResult r = transcribe(model, new FakeMelSource(4500, false),
                withoutTimestamps().withClipTimestamps(10.0, 20.0));
        assertThat(r.segments()).extracting(Segment::start, Segment::end, Segment::text)
                .containsExactly(tuple(10.0, 20.0, " echo"));
        float[] w = model.encodedWindows.get(0);
        assertThat(w[999]).isEqualTo(1f);
        assertThat(w[1000]).as("the window is encoded as the source gives it").isEqualTo(1f);
    }

    @Test
    void theLanguageIsDetectedOnceFromTheFirstWindow() {
        SpecialTokens sp = SpecialTokens.forVocabSize(51866);
        int es = sp.firstLanguage() + 3;
        FakeWhisper model = FakeWhisper.multilingual((c, out) -> {
            if (c.history().length == 1) {
                Logits.probabilities(out, Map.of(es, 0.7, sp.firstLanguage(), 0.3));
            } else {
                out[c.afterSot().length == 3 ? ALPHA : sp.eot()] = 0f;
            }
        });
        TranscriptionResult r = transcribe(model, new FakeMelSource(4000, false), withoutTimestamps());

        assertThat(r.language()).isEqualTo("es");
        assertThat(r.languageProbabilities().get("es")).isCloseTo(0.7, within(1e-6));
        assertThat(r.languageProbabilities().values().stream().mapToDouble(Double::doubleValue).sum())
                .isCloseTo(1.0, within(1e-6)); // float exponentials in the log-sum-exp (LogitMathTest)
        List<int[]> primes = primes(model);
        assertThat(primes.get(0)).containsExactly(sp.sot()); // detection
        assertThat(primes).hasSize(3);
        assertThat(model.feeds.get(2)[0]).containsExactly(es, sp.transcribe(), sp.noTimestamps());
        assertThat(r.segments()).extracting(Segment::text).containsExactly(" alpha", " alpha");
    }

    @Test
    void blankSegmentsAreClearedButKept() {
        // <0.00> space <1.00><1.00> alpha <1.20>: the first segment's text is blank
        FakeWhisper model = FakeWhisper.english(Scripts.plan(0, Map.of(0,
                new int[] {ts(0), ToyCodec.SPACE, ts(50), ts(50), ALPHA, ts(60)})));
        TranscriptionResult r = transcribe(model, new FakeMelSource(3000, false), TranscribeOptions.defaults());
        assertThat(r.segments()).extracting(Segment::start, Segment::end, Segment::text).containsExactly(
                tuple(0.0, 1.0, ""), tuple(1.0, 1.2, " alpha"));
        assertThat(r.segments().get(0).tokens()).isEmpty();
        assertThat(r.segments().get(1).tokens()).containsExactly(ts(50), ALPHA, ts(60));
        assertThat(r.text()).isEqualTo(" alpha");
    }

    @Test
    void withoutConsecutiveTimestampsTheSegmentEndsAtTheLastTimestampUnlessItIsZero() {
        WindowSegmenter.Split split = WindowSegmenter.split(new int[] {ts(5), ALPHA, ts(40)}, SP, 3.0, 3000, 2, 0.02);
        assertThat(split.pieces()).extracting(WindowSegmenter.Piece::start, WindowSegmenter.Piece::end)
                .containsExactly(tuple(3.0, 3.8));
        assertThat(split.seekAdvance()).isEqualTo(3000);

        WindowSegmenter.Split zero = WindowSegmenter.split(new int[] {ts(0), ALPHA}, SP, 0, 1234, 2, 0.02);
        assertThat(zero.pieces()).extracting(WindowSegmenter.Piece::end).containsExactly(12.34);
        assertThat(zero.seekAdvance()).isEqualTo(1234);
    }

    @Test
    void audioThatFitsOneWindowIsEncodedWithTheContextAsked() {
        FakeWhisper auto = FakeWhisper.english(Scripts.plan(0, Map.of(0, new int[] {ALPHA})));
        transcribe(auto, new FakeMelSource(1000, false), withoutTimestamps().withEncoderContext(EncoderContext.AUTO));
        // 1000 frames: 500 positions + 64 margin, rounded up to a multiple of 64
        assertThat(auto.encodedPositions).containsExactly(576);

        FakeWhisper fixed = FakeWhisper.english(Scripts.plan(0, Map.of(0, new int[] {ALPHA})));
        transcribe(fixed, new FakeMelSource(1000, false),
                withoutTimestamps().withEncoderContext(EncoderContext.parse("768")));
        assertThat(fixed.encodedPositions).containsExactly(768);

        FakeWhisper full = FakeWhisper.english(Scripts.plan(0, Map.of(0, new int[] {ALPHA})));
        transcribe(full, new FakeMelSource(1000, false), withoutTimestamps());
        assertThat(full.encodedPositions).containsExactly(1500);
    }

    @Test
    void longerOrStillGrowingAudioIsEncodedWhole() {
        FakeWhisper model = FakeWhisper.english(Scripts.plan(0, Map.of(0, new int[] {ALPHA}, 3000, new int[] {BRAVO})));
        transcribe(model, new FakeMelSource(4500, false), withoutTimestamps().withEncoderContext(EncoderContext.AUTO));
        assertThat(model.encodedPositions).containsOnly(1500).hasSizeGreaterThanOrEqualTo(2);

        // while the audio still arrives its length is unknown: the first window is encoded whole
        FakeWhisper streaming = FakeWhisper.english(Scripts.plan(0, Map.of(0, new int[] {ALPHA}, 3000,
                new int[] {BRAVO})));
        transcribe(streaming, new FakeMelSource(4500, true),
                withoutTimestamps().withEncoderContext(EncoderContext.AUTO));
        assertThat(streaming.encodedPositions).containsOnly(1500);
    }
}
