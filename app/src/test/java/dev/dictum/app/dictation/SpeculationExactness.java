package dev.dictum.app.dictation;

import dev.dictum.app.os.TargetWindow;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.app.engine.WhisperSpeechEngine;
import dev.dictum.app.settings.Settings;
import dev.dictum.app.settings.TranscriptionSettings;
import dev.dictum.audio.AudioInput;
import dev.dictum.audio.vad.SpeechTrimmer;
import dev.dictum.audio.vad.VoiceActivityDetector;
import dev.dictum.whisper.session.DictationSession;
import dev.dictum.whisper.session.WhisperEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The property behind release-to-text (issues 13 and 23): whatever the release point, the text a
 * recording gives through the app's real path (Recording → SpeechTrimmer with its pause reports → the
 * engine's dictation session, speculating at pauses, cutting pieces, checking drafts) is byte for byte
 * the text of its final trimmed audio transcribed from scratch. The reference knows nothing of the
 * session: one piece is the whole trimmed recording transcribed at once; where the documented rule
 * (docs/architecture.md, "Pieces") cuts, the cut is made here, from the trimmer's own pause reports,
 * and the session must have cut at the same samples, so a wrong cut fails.
 *
 * <p>Every pair of samples (i &lt; j) is dictated with a random pause between (some long enough to
 * cut a piece, some not) and released at random points: in the pause after the speculation has run,
 * anywhere in the pause, inside each sample, and long after. The points come from a seed printed in
 * the log ({@value #SEED_ENV} overrides it). A recording with no speech must give nothing. Shared by
 * the CPU test (CI) and the GPU test (the GPU bundle).
 */
final class SpeculationExactness {
    static final Path TESTDATA = Path.of(System.getProperty("dictum.testdata", "testdata"));
    static final String SEED_ENV = "DICTUM_EXACTNESS_SEED";
    private static final int RATE = 16000;
    private static final int FRAME = VoiceActivityDetector.FRAME;
    private static final float THRESHOLD = Settings.defaults().audio().speechThresholdDb().floatValue();
    // The documented piece rule (docs/architecture.md), written here on purpose, not read from the code.
    private static final double SENTENCE_PAUSE_SECONDS = 0.65;
    private static final double MIN_PIECE_SECONDS = 2;
    private static final double MAX_PIECE_SECONDS = 28;

    private final WhisperSpeechEngine engine;
    private final TranscriptionSettings settings = TranscriptionSettings.defaults();
    /** From-scratch texts by trimmed audio: many release points in one pause share it. */
    private final Map<Integer, String> references = new HashMap<>();
    int speculativeReleases;
    int releases;
    int cutReleases;
    /** Releases before the trimmer heard speech (only early points inside the first sample can be). */
    int unheardReleases;

    SpeculationExactness(WhisperEngine whisper, String name) {
        this.engine = new WhisperSpeechEngine(whisper, name, whisper.backend().name(), () -> settings);
    }

    /** The seed of this run: {@value #SEED_ENV} when set, else a new one; printed either way. */
    static long seed(String what) {
        String env = System.getenv(SEED_ENV);
        long seed = env == null || env.isBlank() ? System.nanoTime() : Long.parseLong(env.strip());
        System.out.printf("%s: release points from seed %d (rerun with %s=%d)%n", what, seed, SEED_ENV, seed);
        return seed;
    }

    /** The WAVs of a sample folder ({@code data/<folder>}), in name order. */
    static List<float[]> samples(String folder) throws IOException {
        List<float[]> out = new ArrayList<>();
        try (var files = Files.list(TESTDATA.resolve("data").resolve(folder))) {
            for (Path p : files.filter(f -> f.toString().endsWith(".wav")).sorted().toList()) {
                out.add(AudioInput.readMono16k(p));
            }
        }
        return out;
    }

    /** Every pair of samples, a random pause between, at five random release points each; then no speech. */
    void checkAll(List<float[]> samples, long seed) throws InterruptedException {
        Random random = new Random(seed);
        for (int i = 0; i < samples.size(); i++) {
            for (int j = i + 1; j < samples.size(); j++) {
                float[] a = samples.get(i);
                float[] b = samples.get(j);
                double pause = 0.3 + random.nextDouble(); // 0.3–1.3 s: pieces cut at some, not at others
                float[] rec = concat(quiet(0.3), a, quiet(pause), b, quiet(1.5));
                int aStart = RATE * 3 / 10;
                int aEnd = aStart + a.length;
                int bStart = aEnd + (int) Math.round(pause * RATE);
                int bEnd = bStart + b.length;
                String what = "samples " + (i + 1) + " and " + (j + 1) + String.format(" (pause %.2f s)", pause);
                // 50 ms before the second file starts (its own leading quiet follows): the first sample's
                // trailing quiet plus the pause has filled the trimmer's tail, whatever the pause.
                check(rec, bStart - RATE / 20, true, what + ", released late in the pause");
                check(rec, aEnd + random.nextInt(bStart - aEnd), false, what + ", released in the pause");
                check(rec, aStart + a.length / 3 + random.nextInt(a.length * 2 / 3), false, what + ", inside the first");
                check(rec, bStart + random.nextInt(b.length), false, what + ", inside the second");
                check(rec, bEnd + RATE + random.nextInt(rec.length - bEnd - RATE + 1), true, what + ", long after");
            }
        }
        noSpeech(random);
    }

    /** Hiss only (loud enough to pass the level gate, never voiced): nothing is transcribed, nothing returned. */
    void noSpeech(Random random) {
        float[] rec = new float[RATE * 3];
        for (int i = 0; i < rec.length; i++) {
            rec[i] = (float) (0.05 * random.nextGaussian());
        }
        Recording r = new Recording(Instant.now(), System.nanoTime(), TargetWindow.UNKNOWN, engine.start(), THRESHOLD,
                true, x -> { });
        feed(r, rec, rec.length);
        r.close();
        assertThat(r.heardSpeech()).as("hiss is not speech").isFalse();
        assertThat(r.session(null).finish().text()).as("no speech, no text").isEmpty();
    }

    /**
     * Feeds {@code rec[0, release)} through a Recording as a microphone would (100 ms chunks), then
     * releases; compares with the reference of the trimmed audio.
     *
     * @param awaitSpeculation wait for the speculation of the last pause before releasing, and expect
     *                         the text to come from it
     */
    void check(float[] rec, int release, boolean awaitSpeculation, String what) throws InterruptedException {
        Semaphore partials = new Semaphore(0);
        int[] pauses = new int[1];
        WhisperSpeechEngine.WhisperDictation inner = engine.start(text -> partials.release());
        Dictation counted = new Dictation() {
            @Override
            public void feed(float[] samples) {
                inner.feed(samples);
            }

            @Override
            public void pause(float[] tail, double quietSeconds) {
                if (pauses[0]++ == 0 || quietSeconds * RATE < tail.length + FRAME) {
                    partials.drainPermits(); // a new pause: wait for its speculation, not an older text
                }
                inner.pause(tail, quietSeconds);
            }

            @Override
            public Transcript finish() {
                return inner.finish();
            }

            @Override
            public void cancel() {
                inner.cancel();
            }
        };
        Recording r = new Recording(Instant.now(), System.nanoTime(), TargetWindow.UNKNOWN, counted, THRESHOLD, true,
                x -> { });
        feed(r, rec, release);
        if (awaitSpeculation) {
            assertThat(pauses[0]).as(what + ": a pause was announced").isPositive();
            assertThat(partials.tryAcquire(120, TimeUnit.SECONDS)).as(what + ": the speculation ran").isTrue();
        }
        r.close();
        Cut reference = cut(rec, release);
        assertThat(r.heardSpeech()).as(what + ": speech heard as the trimmer's rule says").isEqualTo(reference.heardSpeech());
        if (!reference.heardSpeech()) {
            // Released before the seventh voiced frame (early "inside the first" points of a sample whose
            // speech starts late, e.g. sample_02 at 1.0 s: 6 voiced frames): the controller's gate inserts
            // nothing, so there is no text to compare.
            unheardReleases++;
            return;
        }
        Transcript t = r.session(null).finish();
        assertThat(inner.pieces()).as(what + ": the pieces are where the rule cuts").isEqualTo(reference.pieces());
        String expected = references.computeIfAbsent(Arrays.hashCode(reference.audio()) * 31 + reference.pieces().size(),
                k -> reference(reference));
        assertThat(t.text()).as(what + " (release at %.2f s)", release / (double) RATE).isEqualTo(expected);
        releases++;
        if (reference.pieces().size() > 1) {
            cutReleases++;
        }
        if (t.speculative()) {
            speculativeReleases++;
        }
        if (awaitSpeculation) {
            assertThat(t.speculative()).as(what + ": the text made at the pause was the answer").isTrue();
        }
    }

    private static void feed(Recording r, float[] rec, int release) {
        for (int at = 0; at < release; at += 1600) {
            r.audio(Arrays.copyOfRange(rec, at, Math.min(release, at + 1600)));
        }
    }

    /** The trimmed audio of a release and its pieces by the documented rule. */
    record Cut(float[] audio, List<DictationSession.Range> pieces, boolean heardSpeech) {
    }

    /**
     * What the trimmer passes on from {@code rec[0, release)} when the recording ends there, cut where
     * the documented rule cuts: at the end of a reported pause's tail, once speech resumed after it, when
     * the pause lasted {@value #SENTENCE_PAUSE_SECONDS} s and the piece holds {@value #MIN_PIECE_SECONDS} s.
     */
    static Cut cut(float[] rec, int release) {
        List<float[]> out = new ArrayList<>();
        int[] passed = new int[1];
        SpeechTrimmer t = new SpeechTrimmer(new VoiceActivityDetector(THRESHOLD), chunk -> {
            out.add(chunk);
            passed[0] += chunk.length;
        });
        List<int[]> pauseEnds = new ArrayList<>(); // {end of the tail, longest quiet in ms}
        t.onPause((tail, quietSeconds) -> {
            int end = passed[0] + tail.length;
            int[] last = pauseEnds.isEmpty() ? null : pauseEnds.get(pauseEnds.size() - 1);
            if (last != null && last[0] == end) {
                last[1] = Math.max(last[1], (int) Math.round(quietSeconds * 1000));
            } else {
                pauseEnds.add(new int[] {end, (int) Math.round(quietSeconds * 1000)});
            }
        });
        t.push(Arrays.copyOf(rec, release));
        t.finish();
        float[] audio = concat(out.toArray(float[][]::new));
        assertThat(audio.length).as("no 28 s piece in these pairs").isLessThan((int) (MAX_PIECE_SECONDS * RATE));
        List<DictationSession.Range> pieces = new ArrayList<>();
        int start = 0;
        for (int[] p : pauseEnds) {
            boolean resumed = audio.length > p[0];
            if (resumed && p[1] >= SENTENCE_PAUSE_SECONDS * 1000 && p[0] - start >= MIN_PIECE_SECONDS * RATE) {
                pieces.add(new DictationSession.Range(start, p[0]));
                start = p[0];
            }
        }
        if (audio.length > start) {
            pieces.add(new DictationSession.Range(start, audio.length));
        }
        return new Cut(audio, pieces, t.heardSpeech());
    }

    /** From scratch: the whole trimmed recording at once, or its pieces in order, each prompted by those before. */
    private String reference(Cut c) {
        WhisperEngine whisper = engine.engine();
        if (c.pieces().size() == 1) {
            return whisper.transcribe(c.audio(), engine.options(settings)).strippedText();
        }
        return whisper.transcribeInPieces(c.audio(), c.pieces(), engine.options(settings)).strip();
    }

    /** What the trimmer passes on from {@code rec[0, release)} when the recording ends there. */
    static float[] trimmed(float[] rec, int release) {
        return cut(rec, release).audio();
    }

    static float[] quiet(double seconds) {
        return new float[(int) Math.round(seconds * RATE)];
    }

    static float[] concat(float[]... parts) {
        java.nio.FloatBuffer out = java.nio.FloatBuffer.allocate(java.util.Arrays.stream(parts).mapToInt(p -> p.length).sum());
        for (float[] p : parts) {
            out.put(p);
        }
        return out.array();
    }
}
