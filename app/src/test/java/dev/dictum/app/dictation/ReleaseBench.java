package dev.dictum.app.dictation;

import dev.dictum.app.engine.WhisperSpeechEngine;
import dev.dictum.app.os.TargetWindow;
import dev.dictum.app.settings.Settings;
import dev.dictum.app.settings.TranscriptionSettings;
import dev.dictum.audio.AudioInput;
import dev.dictum.gpu.select.Backends;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.session.DictationSession;
import dev.dictum.whisper.session.EngineBenchmark;
import dev.dictum.whisper.session.WhisperEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * What the user feels, without a desktop: release-to-text of dictations through the app's real
 * session path (Recording → SpeechTrimmer with pause hints → DictationSession, warmed up as the app
 * warms it), the capture fed in 100 ms chunks at real time (or {@code --speed} times it), beside
 * whisper.cpp 1.7.1 (whisper-jni, model loaded) transcribing the whole utterance at the release, as
 * other dictation apps do. BENCHMARK ONLY, run by scripts/bench-release.sh.
 *
 * <pre>
 * ReleaseBench --model ggml.bin --samples DIR --length SECONDS --ending quiet|speech|both [--runs N]
 *              [--speed F] [--peer-runs N] [--no-live-text] [--backend cpu|cuda|hip] [--max-tokens N]
 * </pre>
 *
 * {@code --backend cuda} runs the session on the GPU (scripts/bench-gpu.sh, issue 12; the peer then
 * needs {@code --peer-runs 0}: whisper-jni is CPU-only and not in the GPU bundle). {@code --max-tokens}
 * caps the tokens decoded per window and turns the temperature fallback off: for random-weight models,
 * whose garbage text would otherwise run to 224 tokens and be retried at every temperature; the
 * timing then stands for a dictation of that many tokens.
 *
 * Prints one line: {@code length ending runs first median p95 | tail median | finish median p95 |
 * handoff median | speculative share | after-release encode/decode medians | peer median}, then the
 * parts of the release ({@link DictationSession.Release}, medians): the wait for the session's thread
 * (a live-text pass that stopped being wanted ends its step or layer first), the log-mel of the piece,
 * the rest of the run on the host (window normalisation, logit filters and softmax), the session's
 * hand-off, the decoder calls, the draft's checked and accepted tokens, and what the session was
 * doing at the release (idle / partial / speculative: runs of each).
 */
public final class ReleaseBench {
    private static final int RATE = 16000;
    private static final int CHUNK = 1600;

    public static void main(String[] args) throws Exception {
        Path model = null;
        Path samples = null;
        double length = 5;
        String ending = "quiet";
        int runs = 20;
        double speed = 1;
        int peerRuns = 5;
        boolean live = true;
        String backend = "cpu";
        Integer maxTokens = null;
        for (int i = 0; i < args.length; i += 2) {
            if (args[i].equals("--no-live-text")) {
                live = false;
                i--;
                continue;
            }
            switch (args[i]) {
                case "--model" -> model = Path.of(args[i + 1]);
                case "--samples" -> samples = Path.of(args[i + 1]);
                case "--length" -> length = Double.parseDouble(args[i + 1]);
                case "--ending" -> ending = args[i + 1];
                case "--runs" -> runs = Integer.parseInt(args[i + 1]);
                case "--speed" -> speed = Double.parseDouble(args[i + 1]);
                case "--peer-runs" -> peerRuns = Integer.parseInt(args[i + 1]);
                case "--backend" -> backend = args[i + 1];
                case "--max-tokens" -> maxTokens = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (model == null || samples == null
                || !(ending.equals("quiet") || ending.equals("speech") || ending.equals("both"))) {
            System.err.println("usage: ReleaseBench --model ggml.bin --samples DIR --length S --ending quiet|speech|both");
            System.exit(2);
        }
        List<float[]> sentences = sentences(samples);
        // "both": one model load for the two endings (one RESULT line each; "first" is then the first
        // dictation of that ending, not the first after launch, for the second one).
        List<String> endings = ending.equals("both") ? List.of("quiet", "speech") : List.of(ending);
        TranscriptionSettings settings = TranscriptionSettings.defaults();
        float threshold = Settings.defaults().audio().speechThresholdDb().floatValue();
        Integer cap = maxTokens;
        UnaryOperator<TranscribeOptions> adjust = cap == null ? UnaryOperator.identity()
                : o -> o.withDecoding(o.decoding().withSampleLen(cap)).withTemperatures(0.0);
        try (WhisperEngine whisper = WhisperEngine.load(model, Backends.open(backend))) {
            // The app's warm-up (EngineManager): two throw-away transcriptions right after the load.
            WhisperSpeechEngine engine = new WhisperSpeechEngine(whisper, "bench", backend, () -> settings);
            for (int w = 0; w < 2; w++) {
                whisper.transcribe(EngineBenchmark.syntheticAudio(2), adjust.apply(engine.options(settings)));
            }
            for (String end : endings) {
                float[] clip = clip(sentences, length, end.equals("speech"));
                List<long[]> rows = new ArrayList<>();
                java.util.Map<String, Integer> busy = new java.util.TreeMap<>();
                int speculative = 0;
                String text = null;
                for (int run = 0; run < runs; run++) {
                    WhisperSpeechEngine.WhisperDictation session = engine.start(live ? t -> { } : null, adjust);
                    Recording r = new Recording(Instant.now(), System.nanoTime(), TargetWindow.UNKNOWN, session, threshold,
                            true, x -> { });
                    long start = System.nanoTime();
                    for (int at = 0; at < clip.length; at += CHUNK) {
                        long due = start + (long) (at / (double) RATE / speed * 1e9);
                        long wait = due - System.nanoTime();
                        if (wait > 0) {
                            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                        }
                        r.audio(Arrays.copyOfRange(clip, at, Math.min(clip.length, at + CHUNK)));
                    }
                    long release = System.nanoTime();
                    r.close(); // the trimmer's tail
                    long tail = System.nanoTime();
                    Transcript t = r.session(null).finish();
                    long finished = System.nanoTime();
                    StringBuilder window = new StringBuilder(); // the hand-off: a stand-in for the paste
                    window.append(t.text());
                    long handed = System.nanoTime();
                    DictationSession.Release how = session.release();
                    if (t.speculative()) {
                        speculative++;
                    }
                    text = window.toString();
                    rows.add(new long[] {handed - release, tail - release, finished - tail, handed - finished,
                            how.encodeNanos(), how.decodeNanos(), how.waitNanos(), how.melNanos(), how.hostNanos(),
                            how.handoffNanos(), how.decodeSteps() * 1_000_000L, how.draftChecked() * 1_000_000L,
                            how.draftAccepted() * 1_000_000L});
                    busy.merge(how.busyAtFinish(), 1, Integer::sum);
                }
                double peer = peerRuns > 0 ? WhisperCppPeer.medianMs(model, clip, peerRuns) : Double.NaN;
                long first = rows.get(0)[0];
                List<long[]> steady = rows.size() > 1 ? rows.subList(1, rows.size()) : rows;
                System.out.printf(Locale.ROOT,
                        "RESULT length=%.0f ending=%s live=%s runs=%d speed=%.1f first_ms=%.1f total_median_ms=%.1f total_p95_ms=%.1f"
                                + " tail_median_ms=%.2f finish_median_ms=%.1f finish_p95_ms=%.1f handoff_median_ms=%.3f"
                                + " speculative=%d/%d encode_median_ms=%.1f decode_median_ms=%.1f peer_median_ms=%.1f"
                                + " audio_s=%.2f backend=%s max_tokens=%s"
                                + " wait_median_ms=%.2f mel_median_ms=%.2f host_median_ms=%.2f session_handoff_median_ms=%.3f"
                                + " steps_median=%.0f draft_checked_median=%.0f draft_accepted_median=%.0f busy_at_release=%s"
                                + " text=\"%s\"%n",
                        length, end, live, runs, speed, first / 1e6, pct(steady, 0, 50), pct(steady, 0, 95), pct(steady, 1, 50),
                        pct(steady, 2, 50), pct(steady, 2, 95), pct(steady, 3, 50), speculative, runs, pct(steady, 4, 50),
                        pct(steady, 5, 50), peer, clip.length / (double) RATE, backend, cap == null ? "none" : cap,
                        pct(steady, 6, 50), pct(steady, 7, 50), pct(steady, 8, 50), pct(steady, 9, 50),
                        pct(steady, 10, 50), pct(steady, 11, 50), pct(steady, 12, 50),
                        busy.toString().replace(" ", "").replace("{", "").replace("}", "").replace('=', ':'),
                        text.length() > 60 ? text.substring(0, 60) + "…" : text);
            }
        }
    }

    /** The sample WAVs in name order. */
    static List<float[]> sentences(Path dir) throws Exception {
        List<float[]> out = new ArrayList<>();
        try (var files = Files.list(dir)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".wav")).sorted().toList()) {
                out.add(AudioInput.readMono16k(p));
            }
        }
        return out;
    }

    /**
     * About {@code seconds} of dictation: 0.3 s of quiet, then the sentences in turn with 0.8 s pauses.
     * Quiet ending: cut at the last pause that leaves 0.6 s for the quiet before the release (mid-sentence
     * when the clip is shorter than the first sentence), then quiet to the length. Speech ending: cut at
     * the length if that is at least 1 s into a sentence and 0.5 s before its end, else at 1 s into the
     * next sentence (the clip's real length is printed as audio_s).
     */
    static float[] clip(List<float[]> sentences, double seconds, boolean speechToRelease) {
        int want = (int) (seconds * RATE);
        int pause = RATE * 8 / 10;
        List<int[]> speech = new ArrayList<>(); // [start, end) of each sentence in the stream
        float[] stream = new float[want + 40 * RATE];
        int at = RATE * 3 / 10;
        for (int k = 0; at < want + 10 * RATE; k++) {
            float[] s = sentences.get(k % sentences.size());
            System.arraycopy(s, 0, stream, at, s.length);
            speech.add(new int[] {at, at + s.length});
            at += s.length + pause;
        }
        if (speechToRelease) {
            // Released while talking: at least 1 s into a sentence (past the quiet a sample WAV starts
            // with) and 0.5 s before its end; a length that falls elsewhere moves to the next such point.
            int end = want;
            for (int[] s : speech) {
                if (end < s[0] + RATE) {
                    end = s[0] + RATE;
                    break;
                }
                if (end <= s[1] - RATE / 2) {
                    break;
                }
            }
            return Arrays.copyOf(stream, end);
        }
        int quiet = RATE * 6 / 10;
        int cut = want - quiet;
        int best = -1;
        for (int[] s : speech) {
            if (s[1] <= cut) {
                best = s[1];
            }
        }
        float[] out = new float[want];
        System.arraycopy(stream, 0, out, 0, best > 0 ? best : cut);
        return out;
    }

    private static double pct(List<long[]> rows, int col, int p) {
        long[] v = rows.stream().mapToLong(r -> r[col]).sorted().toArray();
        int i = (int) Math.ceil(p / 100.0 * v.length) - 1;
        return v[Math.max(0, Math.min(v.length - 1, i))] / 1e6;
    }
}
