package dev.dictum.app.dictation;

import dev.dictum.app.os.TargetWindow;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.app.engine.WhisperDictationEngine;
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
import java.util.List;
import java.util.Random;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The property behind release-to-text (issue 13): whatever the release point, the text a recording
 * gives through the app's real path (Recording → SpeechTrimmer with its pause hints → the engine's
 * dictation session, speculating at pauses) is byte for byte the text of its final trimmed audio
 * transcribed from scratch (cut into the same pieces, each prompted with the text before it:
 * {@link WhisperEngine#transcribeInPieces}). Each case is two samples with a pause between (so speech resumes after
 * a speculation), released in the pause after the speculation has run, inside the second sample,
 * long after it (again after the speculation) and at a random point. Shared by the CPU test (CI)
 * and the GPU test (the GPU bundle).
 */
final class SpeculationExactness {
    static final Path TESTDATA = Path.of(System.getProperty("dictum.testdata", "testdata"));
    private static final int RATE = 16000;
    private static final float THRESHOLD = Settings.defaults().audio().speechThresholdDb().floatValue();

    private final WhisperDictationEngine engine;
    private final TranscriptionSettings settings = TranscriptionSettings.defaults();
    int speculativeReleases;
    int releases;

    SpeculationExactness(WhisperEngine whisper, String name) {
        this.engine = new WhisperDictationEngine(whisper, name, whisper.backend().name(), () -> settings);
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

    /**
     * Samples in pairs (1 then 2, 3 then 4, …: every sample once, CI time kept small), a pause between,
     * at four release points each.
     */
    void checkAll(List<float[]> samples, long seed) throws InterruptedException {
        Random random = new Random(seed);
        for (int i = 0; i < samples.size(); i += 2) {
            float[] a = samples.get(i);
            float[] b = samples.get((i + 1) % samples.size());
            float[] rec = concat(quiet(0.3), a, quiet(0.9), b, quiet(1.5));
            int aEnd = RATE * 3 / 10 + a.length;
            int bStart = aEnd + RATE * 9 / 10;
            int bEnd = bStart + b.length;
            String what = "sample " + (i + 1) + " then " + ((i + 1) % samples.size() + 1);
            check(rec, aEnd + RATE * 6 / 10, true, what + ", released in the pause");
            check(rec, bStart + b.length / 2, false, what + ", released inside the second");
            check(rec, rec.length, true, what + ", released long after");
            check(rec, RATE / 2 + random.nextInt(rec.length - RATE / 2), false, what + ", random release");
        }
    }

    /**
     * Feeds {@code rec[0, release)} through a Recording as a microphone would (100 ms chunks), then
     * releases; compares with the from-scratch transcription of the trimmed audio.
     *
     * @param awaitSpeculation wait for the speculation of the last pause before releasing, and expect
     *                         the text to come from it
     */
    void check(float[] rec, int release, boolean awaitSpeculation, String what) throws InterruptedException {
        Semaphore partials = new Semaphore(0);
        int[] pauses = new int[1];
        WhisperDictationEngine.Session inner = engine.start(text -> partials.release());
        EngineSession counted = new EngineSession() {
            @Override
            public void feed(float[] samples) {
                inner.feed(samples);
            }

            @Override
            public void pause(float[] tail, double quietSeconds) {
                pauses[0]++;
                partials.drainPermits();
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
        for (int at = 0; at < release; at += 1600) {
            r.audio(java.util.Arrays.copyOfRange(rec, at, Math.min(release, at + 1600)));
        }
        if (awaitSpeculation) {
            assertThat(pauses[0]).as(what + ": a pause was announced").isPositive();
            assertThat(partials.tryAcquire(60, TimeUnit.SECONDS)).as(what + ": the speculation ran").isTrue();
            Thread.sleep(50);
        }
        r.close();
        float[] trimmed = trimmed(rec, release);
        if (!r.heardSpeech()) {
            r.cancel();
            return;
        }
        Transcript t = r.session(null).finish();
        List<DictationSession.Range> pieces = inner.pieces();
        assertThat(pieces.get(pieces.size() - 1).end()).as(what + ": the pieces cover the trimmed audio")
                .isEqualTo(trimmed.length);
        String expected = engine.engine().transcribeInPieces(trimmed, pieces, engine.options(settings)).strip();
        assertThat(t.text()).as(what + " (release at %.2f s)", release / (double) RATE).isEqualTo(expected);
        releases++;
        if (t.speculative()) {
            speculativeReleases++;
        }
        if (awaitSpeculation) {
            assertThat(t.speculative()).as(what + ": the text made at the pause was the answer").isTrue();
        }
    }

    /** What the trimmer passes on from {@code rec[0, release)} when the recording ends there. */
    static float[] trimmed(float[] rec, int release) {
        List<float[]> out = new ArrayList<>();
        SpeechTrimmer t = new SpeechTrimmer(new VoiceActivityDetector(THRESHOLD), out::add);
        t.push(java.util.Arrays.copyOf(rec, release));
        t.finish();
        return concat(out.toArray(float[][]::new));
    }

    static float[] quiet(double seconds) {
        return new float[(int) Math.round(seconds * RATE)];
    }

    static float[] concat(float[]... parts) {
        int n = 0;
        for (float[] p : parts) {
            n += p.length;
        }
        float[] out = new float[n];
        int at = 0;
        for (float[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
