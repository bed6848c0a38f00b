package dev.dictum.app.bench;

import io.github.givimad.whisperjni.WhisperContext;
import io.github.givimad.whisperjni.WhisperFullParams;
import io.github.givimad.whisperjni.WhisperJNI;
import io.github.givimad.whisperjni.WhisperSamplingStrategy;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * whisper.cpp CPU reference numbers for Dictum's {@code ./dictum bench --json}: encoder ms per 30 s
 * window and decoder ms per token (median/min/max over runs), plus whisper.cpp's transcript of the
 * WAV. BENCHMARK ONLY: a plain main in test scope, run by scripts/bench-vs-whispercpp.sh; whisper-jni
 * (which bundles whisper.cpp 1.7.1's natives) is a test-scope dependency and never ships.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp TEST_CLASSPATH dev.dictum.app.bench.WhisperCppBench \
 *     --model ggml-x.bin --wav x.wav [--runs 5] [--warmup 1] [--threads 2] [--language en]
 *     [--tokens N | --max-tokens N] [--no-full] [--verbose]
 * </pre>
 *
 * <p>Method (per run, on whisper.cpp's own C API through FFM, see {@link WhisperCppNative}):
 * <ol>
 * <li>mel: whisper_pcm_to_mel of the WAV (reported apart, not part of the encoder time);
 * <li>encoder_ms: wall time of one whisper_encode(ctx, 0, threads) = one 30 s window (conv stem,
 *     encoder layers and the cross-attention K/V projections for all decoder layers);
 * <li>prompt: one whisper_decode of the prompt [SOT, (lang, transcribe,) NOTIMESTAMPS] (reported
 *     apart as prompt_ms; it is a batched pass, not a per-token step);
 * <li>decode_ms_per_token: then greedy decoding, one whisper_decode call per token with the KV cache
 *     (n_tokens = 1, n_past = prompt + tokens so far), each call timed; the run's value is the
 *     mean over its calls. Tokens = the number of those single-token calls actually executed.
 *     Greedy = argmax over text tokens and EOT (EOT and " " suppressed at the first step, as
 *     whisper.cpp's suppress_blank), stopping at EOT or at max-tokens (default n_text_ctx/2 - 4 =
 *     220, whisper_full's own cap). With --tokens N it decodes exactly N tokens and ignores EOT,
 *     so that two engines can be compared at the same sequence length (per-token cost grows with
 *     the number of cached positions). A random-weight model never emits EOT and runs to the cap.
 * </ol>
 * The timed runs use the first 30 s window of the WAV (a longer WAV is still transcribed whole by
 * whisper_full below). Median/min/max are over the timed runs (after --warmup untimed runs). As a cross-check, the
 * output also has whisper.cpp's own counters (whisper_print_timings after whisper_reset_timings:
 * ggml_time_us around its internal encode/decode; "decode" there counts exactly the n_tokens = 1
 * calls). Last, unless --no-full, it runs whisper_full() through whisper-jni's Java API (greedy,
 * no timestamps, no temperature fallback) on the same WAV and reports its text and wall time: the
 * transcript of the real whisper.cpp pipeline, to check both engines saw the same audio.
 *
 * <p>Caveats: whisper.cpp's encode includes the cross-attention K/V of the decoder layers (about
 * 10 % of a tiny encoder's FLOPs), wherever Dictum puts that work; per-token time grows with the
 * position, so compare at similar token counts (--tokens); ggml's OpenMP threads spin-wait by
 * default, which on a loaded machine inflates both numbers badly (OMP_WAIT_POLICY=PASSIVE helps,
 * and is recorded in the output).
 */
public final class WhisperCppBench {

    private WhisperCppBench() {
    }

    private static final class Options {
        Path model;
        Path wav;
        int runs = 5;
        int warmup = 1;
        int threads = 2;
        String language = "en";
        int forcedTokens = -1;
        int maxTokens = -1;
        boolean full = true;
        boolean verbose;
        /** A libwhisper.so to bench instead of whisper-jni's (--lib); whisper_full is then skipped. */
        Path library;
    }

    public static void main(String[] args) throws Exception {
        Options o = parse(args);
        float[] pcm = BenchWav.read16kMono(o.wav);
        WhisperCppNative.load(o.verbose, o.library);
        try {
            run(o, pcm);
        } finally {
            WhisperCppNative.deleteExtractedLibraries();
        }
    }

    private static void run(Options o, float[] pcm) throws Exception {
        String systemInfo = WhisperCppNative.systemInfo();
        log("whisper.cpp: " + WhisperCppNative.libraryFile() + "\n  " + systemInfo);

        double[] encMs = new double[o.runs];
        double[] tokMs = new double[o.runs];
        double[] promptMs = new double[o.runs];
        double[] melMs = new double[o.runs];
        double[] wholeMs = new double[o.runs];
        int[] tokens = new int[o.runs];
        List<Double> allSteps = new ArrayList<>();
        String greedyText;
        WhisperCppNative.Timings internal;
        int nTextCtx;
        try (WhisperCppNative w = new WhisperCppNative(o.model)) {
            nTextCtx = w.nTextCtx();
            Greedy g = new Greedy(w, o);
            for (int i = 0; i < o.warmup; i++) {
                g.run(o.threads);
                log(String.format(Locale.ROOT, "warm-up %d: encoder %.1f ms, %d tokens at %.2f ms/token", i + 1,
                        g.encodeMs, g.steps.size(), mean(g.steps)));
            }
            w.resetTimings();
            for (int r = 0; r < o.runs; r++) {
                g.run(o.threads);
                melMs[r] = g.melMs;
                wholeMs[r] = g.wholeMs;
                encMs[r] = g.encodeMs;
                promptMs[r] = g.promptMs;
                tokMs[r] = mean(g.steps);
                tokens[r] = g.steps.size();
                allSteps.addAll(g.steps);
                log(String.format(Locale.ROOT, "run %d/%d: encoder %.1f ms, prompt %.1f ms, %d tokens at %.2f ms/token",
                        r + 1, o.runs, encMs[r], promptMs[r], tokens[r], tokMs[r]));
            }
            internal = w.timings();
            greedyText = g.text();
        }

        String fullText = null;
        double fullMs = Double.NaN;
        if (o.full) {
            WhisperJNI jni = new WhisperJNI();
            try (WhisperContext c = jni.init(o.model)) {
                WhisperFullParams p = fullParams(o);
                for (int i = 0; i < Math.max(1, o.warmup) + 1; i++) { // warm-up(s), then one timed call
                    long t0 = System.nanoTime();
                    int rc = jni.full(c, p, pcm, pcm.length);
                    fullMs = (System.nanoTime() - t0) / 1e6;
                    if (rc != 0) {
                        throw new IllegalStateException("whisper_full returned " + rc);
                    }
                }
                StringBuilder sb = new StringBuilder();
                for (int s = 0, n = jni.fullNSegments(c); s < n; s++) {
                    sb.append(jni.fullGetSegmentText(c, s));
                }
                fullText = sb.toString().strip();
            }
            log(String.format(Locale.ROOT, "whisper_full (whisper-jni): %.1f ms: %s", fullMs, fullText));
        }

        double[] steps = allSteps.stream().mapToDouble(Double::doubleValue).toArray();
        StringBuilder j = new StringBuilder(1024);
        j.append('{');
        field(j, "engine", o.library == null ? "whisper.cpp 1.7.1 (natives of io.github.givimad:whisper-jni:1.7.1), CPU"
                : "whisper.cpp " + WhisperCppNative.version() + " (" + o.library + "), CPU").append(',');
        field(j, "model", o.model.toString()).append(',');
        field(j, "wav", o.wav.toString()).append(',');
        j.append("\"audio_s\":").append(num(pcm.length / 16000.0)).append(',');
        j.append("\"threads\":").append(o.threads).append(',');
        // whisper.cpp 1.7.1's ggml runs its threads with OpenMP (libgomp): with the default (active)
        // wait policy its threads spin at every graph barrier, which on a loaded machine turns into
        // scheduler-tick stalls; OMP_WAIT_POLICY=PASSIVE makes them sleep instead. Record it.
        field(j, "omp_wait_policy", System.getenv().getOrDefault("OMP_WAIT_POLICY", "default")).append(',');
        j.append("\"runs\":").append(o.runs).append(',');
        j.append("\"warmup\":").append(o.warmup).append(',');
        j.append("\"encoder_ms\":").append(stats(encMs)).append(',');
        j.append("\"decode_ms_per_token\":").append(stats(tokMs)).append(',');
        j.append("\"tokens\":").append(tokens.length == 0 ? 0 : (int) median(Arrays.stream(tokens).asDoubleStream().toArray())).append(',');
        j.append("\"token_mode\":\"").append(o.forcedTokens > 0 ? "forced" : "until_eot").append("\",");
        j.append("\"n_text_ctx\":").append(nTextCtx).append(',');
        j.append("\"decode_step_ms\":").append(stats(steps)).append(',');
        j.append("\"prompt_ms\":").append(stats(promptMs)).append(',');
        j.append("\"mel_ms\":").append(stats(melMs)).append(',');
        // The whole greedy transcription of the first window: mel, encoder, prompt and every decode
        // step with its argmax (what scripts/bench-vs-whispercpp.sh sums over the samples).
        j.append("\"transcribe_ms\":").append(stats(wholeMs)).append(',');
        j.append("\"whispercpp_timings\":{\"encode_ms_per_run\":").append(num(internal.encodeMsPerRun()))
                .append(",\"encode_runs\":").append(internal.encodeRuns())
                .append(",\"decode_ms_per_token\":").append(num(internal.decodeMsPerRun()))
                .append(",\"decode_tokens\":").append(internal.decodeRuns()).append("},");
        if (o.full) {
            j.append("\"full_ms\":").append(num(fullMs)).append(',');
        }
        field(j, "text", fullText != null ? fullText : greedyText).append(',');
        field(j, "greedy_text", greedyText).append(',');
        if (fullText != null) {
            j.append("\"texts_match\":").append(fullText.equals(greedyText)).append(',');
        }
        field(j, "system_info", systemInfo).append(',');
        field(j, "method", "encoder_ms: wall time of whisper_encode (one 30 s window, mel excluded); "
                + "decode_ms_per_token: mean wall time of the single-token whisper_decode calls of a greedy "
                + "run (KV cache, prompt pass excluded), median/min/max over runs; whisper.cpp C API via FFM "
                + "on whisper-jni's bundled libwhisper");
        j.append('}');
        System.out.println(j);
        if (internal.raw().isBlank()) {
            log("note: whisper_print_timings printed nothing (log capture failed); whispercpp_timings is NaN");
        }
    }

    static WhisperFullParams fullParams(Options o) {
        WhisperFullParams p = new WhisperFullParams(WhisperSamplingStrategy.GREEDY);
        p.nThreads = o.threads;
        p.language = o.language;
        p.detectLanguage = false;
        p.translate = false;
        p.noTimestamps = true;
        p.noContext = true;
        p.singleSegment = false;
        p.printProgress = false;
        p.printRealtime = false;
        p.printTimestamps = false;
        p.printSpecial = false;
        p.temperature = 0f;
        p.temperatureInc = 0f; // no fallback: one greedy pass
        p.greedyBestOf = 1;
        return p;
    }

    /** One greedy run on whisper.cpp's C API: mel, encode, prompt, then timed single-token decodes. */
    private static final class Greedy {
        private final WhisperCppNative w;
        private final int[] prompt;
        private final int eot;
        private final int blank;
        private final int nVocab;
        private final int cap;
        private final boolean forced;
        private final float[] pcm;
        private final Arena arena = Arena.ofAuto();
        private final MemorySegment tok;
        double melMs;
        double encodeMs;
        double promptMs;
        /** mel to the last token's argmax: one whole greedy transcription of the window. */
        double wholeMs;
        final List<Double> steps = new ArrayList<>();
        final List<Integer> out = new ArrayList<>();

        Greedy(WhisperCppNative w, Options o) throws java.io.IOException {
            this.w = w;
            this.pcm = BenchWav.read16kMono(o.wav);
            this.eot = w.tokenEot();
            this.nVocab = w.nVocab();
            List<Integer> p = new ArrayList<>(List.of(w.tokenSot()));
            if (w.isMultilingual()) {
                int lang = w.tokenLang(o.language);
                if (lang < 0) {
                    throw new IllegalArgumentException("unknown language " + o.language);
                }
                p.add(lang);
                p.add(w.tokenTranscribe());
            }
            p.add(w.tokenNot());
            this.prompt = p.stream().mapToInt(Integer::intValue).toArray();
            int room = w.nTextCtx() - prompt.length;
            this.forced = o.forcedTokens > 0;
            int want = forced ? o.forcedTokens : o.maxTokens > 0 ? o.maxTokens : w.nTextCtx() / 2 - 4;
            if (want > room) {
                throw new IllegalArgumentException(want + " tokens do not fit: n_text_ctx " + w.nTextCtx()
                        + " minus a prompt of " + prompt.length);
            }
            this.cap = want;
            int b = -1;
            for (int t = 0; t < eot && b < 0; t++) {
                byte[] s = w.tokenBytes(t);
                if (s.length == 1 && s[0] == ' ') {
                    b = t;
                }
            }
            this.blank = b;
            this.tok = arena.allocate(ValueLayout.JAVA_INT, Math.max(prompt.length, 1));
        }

        void run(int threads) {
            steps.clear();
            out.clear();
            long t0 = System.nanoTime();
            w.pcmToMel(pcm, threads);
            long t1 = System.nanoTime();
            w.encode(0, threads);
            long t2 = System.nanoTime();
            MemorySegment.copy(prompt, 0, tok, ValueLayout.JAVA_INT, 0, prompt.length);
            w.decode(tok, prompt.length, 0, threads);
            long t3 = System.nanoTime();
            melMs = (t1 - t0) / 1e6;
            encodeMs = (t2 - t1) / 1e6;
            promptMs = (t3 - t2) / 1e6;
            int nPast = prompt.length;
            int next = argmax(w.logitsRow(prompt.length - 1), true);
            while (steps.size() < cap && (forced || next != eot)) {
                out.add(next);
                tok.setAtIndex(ValueLayout.JAVA_INT, 0, next);
                long s0 = System.nanoTime();
                w.decode(tok, 1, nPast, threads);
                steps.add((System.nanoTime() - s0) / 1e6);
                nPast++;
                next = argmax(w.logitsRow(0), false);
            }
            wholeMs = (System.nanoTime() - t0) / 1e6;
        }

        /** Greedy over text tokens [0, eot) and EOT; no EOT when forcing; no EOT or " " at the first step. */
        private int argmax(MemorySegment logits, boolean first) {
            int best = -1;
            float bestV = Float.NEGATIVE_INFINITY;
            int last = Math.min(eot, nVocab - 1);
            for (int t = 0; t <= last; t++) {
                if (t == eot && (first || forced) || first && t == blank) {
                    continue;
                }
                float v = logits.getAtIndex(ValueLayout.JAVA_FLOAT, t);
                if (v > bestV) {
                    bestV = v;
                    best = t;
                }
            }
            return best < 0 ? 0 : best;
        }

        String text() {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            for (int t : out) {
                if (t < eot) {
                    b.writeBytes(w.tokenBytes(t));
                }
            }
            return b.toString(StandardCharsets.UTF_8).strip();
        }
    }

    private static Options parse(String[] args) {
        Options o = new Options();
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--model" -> o.model = Path.of(value(args, ++i, a));
                case "--wav" -> o.wav = Path.of(value(args, ++i, a));
                case "--runs" -> o.runs = positive(value(args, ++i, a), a);
                case "--warmup" -> o.warmup = Integer.parseInt(value(args, ++i, a));
                case "--threads" -> o.threads = positive(value(args, ++i, a), a);
                case "--language" -> o.language = value(args, ++i, a);
                case "--tokens" -> o.forcedTokens = positive(value(args, ++i, a), a);
                case "--max-tokens" -> o.maxTokens = positive(value(args, ++i, a), a);
                case "--no-full" -> o.full = false;
                case "--lib" -> {
                    o.library = Path.of(value(args, ++i, a));
                    o.full = false; // whisper_full goes through whisper-jni's Java API, i.e. its own natives
                }
                case "--verbose" -> o.verbose = true;
                case "-h", "--help" -> {
                    System.out.println("usage: WhisperCppBench --model GGML.bin --wav 16kHz.wav [--runs N] [--warmup N]"
                            + " [--threads N] [--language xx] [--tokens N | --max-tokens N] [--no-full] [--lib libwhisper.so] [--verbose]\n"
                            + "       WhisperCppBench GGML.bin WAV [RUNS]");
                    System.exit(0);
                }
                default -> {
                    if (a.startsWith("--")) {
                        usage("unknown option " + a);
                    }
                    positional.add(a);
                }
            }
        }
        if (o.model == null && !positional.isEmpty()) {
            o.model = Path.of(positional.removeFirst());
        }
        if (o.wav == null && !positional.isEmpty()) {
            o.wav = Path.of(positional.removeFirst());
        }
        if (!positional.isEmpty()) {
            o.runs = positive(positional.removeFirst(), "RUNS");
        }
        if (o.model == null || o.wav == null || !positional.isEmpty()) {
            usage("need a ggml model and a WAV");
        }
        if (!Files.isRegularFile(o.model)) {
            usage("no model file " + o.model + " (whisper.cpp takes a ggml .bin file)");
        }
        if (!Files.isRegularFile(o.wav)) {
            usage("no WAV file " + o.wav);
        }
        return o;
    }

    private static String value(String[] args, int i, String opt) {
        if (i >= args.length) {
            usage(opt + " needs a value");
        }
        return args[i];
    }

    private static int positive(String s, String what) {
        int v = Integer.parseInt(s);
        if (v < 1) {
            usage(what + " must be >= 1");
        }
        return v;
    }

    private static void usage(String msg) {
        System.err.println("WhisperCppBench: " + msg + " (--help for usage)");
        System.exit(2);
    }

    private static void log(String s) {
        System.err.println(s);
    }

    static double mean(List<Double> x) {
        return x.isEmpty() ? Double.NaN : x.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }

    static double median(double[] x) {
        if (x.length == 0) {
            return Double.NaN;
        }
        double[] s = x.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    private static String stats(double[] x) {
        double min = Arrays.stream(x).min().orElse(Double.NaN);
        double max = Arrays.stream(x).max().orElse(Double.NaN);
        return "{\"median\":" + num(median(x)) + ",\"min\":" + num(min) + ",\"max\":" + num(max) + "}";
    }

    private static String num(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.3f", v) : "null";
    }

    private static StringBuilder field(StringBuilder j, String k, String v) {
        j.append('"').append(k).append("\":");
        if (v == null) {
            return j.append("null");
        }
        j.append('"');
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            switch (c) {
                case '"' -> j.append("\\\"");
                case '\\' -> j.append("\\\\");
                case '\n' -> j.append("\\n");
                case '\r' -> j.append("\\r");
                case '\t' -> j.append("\\t");
                default -> {
                    if (c < 0x20) {
                        j.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        j.append(c);
                    }
                }
            }
        }
        return j.append('"');
    }
}
