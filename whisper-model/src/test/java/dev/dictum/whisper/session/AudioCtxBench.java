package dev.dictum.whisper.session;

import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.whisper.decode.DecodingOptions;
import dev.dictum.whisper.decode.EncoderContext;
import dev.dictum.whisper.decode.Task;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.decode.TranscriptionResult;
import dev.dictum.whisper.testutil.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The accuracy and speed of a reduced encoder context (scripts/bench-audio-ctx.sh): every sample of
 * a set, cut or lengthened to 2, 5, 10 and 20 s of speech (a sample followed by the next ones of the
 * same language with 0.5 s pauses, cut at the length), transcribed (and translated, for a
 * multilingual set) with full and with auto context on the CPU. Prints Markdown rows: how often the
 * auto text equals the full-context text, its word error rate against it, and the encoder time.
 *
 * <p>Usage: {@code AudioCtxBench toy-en|toy-multi} (with -Ddictum.testdata).
 */
public final class AudioCtxBench {
    private static final int RATE = 16000;
    private static final int[] SECONDS = {2, 5, 10, 20};

    private AudioCtxBench() {
    }

    public static void main(String[] args) throws IOException {
        String set = args[0];
        boolean multi = set.equals("toy-multi");
        List<String[]> rows = Files.readAllLines(TestData.data(set + "-samples", "transcripts.tsv")).stream().skip(1)
                .filter(l -> !l.isBlank()).map(l -> l.split("\t", -1)).toList();
        try (WhisperEngine engine = WhisperEngine.load(TestData.model(set), new CpuBackend())) {
            List<float[]> audio = new ArrayList<>();
            for (String[] r : rows) {
                audio.add(TestData.wav16kMono(TestData.data(set + "-samples", r[0])));
            }
            // warm-up: the JIT and the caches, both context sizes
            engine.transcribe(audio.get(0), options(Task.TRANSCRIBE, EncoderContext.FULL));
            engine.transcribe(audio.get(0), options(Task.TRANSCRIBE, EncoderContext.AUTO));
            for (Task task : multi ? new Task[] {Task.TRANSCRIBE, Task.TRANSLATE} : new Task[] {Task.TRANSCRIBE}) {
                for (int seconds : SECONDS) {
                    Row row = new Row();
                    for (int i = 0; i < rows.size(); i++) {
                        String lang = multi ? rows.get(i)[1] : "en";
                        if (task == Task.TRANSLATE && lang.equals("en")) {
                            continue;
                        }
                        float[] clip = clip(audio, rows, i, multi, seconds);
                        TranscriptionResult full = engine.transcribe(clip, options(task, EncoderContext.FULL));
                        TranscriptionResult auto = engine.transcribe(clip, options(task, EncoderContext.AUTO));
                        row.add(full, auto);
                    }
                    System.out.println(row.markdown(set, task, seconds,
                            EncoderContext.AUTO.positionsFor(seconds * 100, engine.model().dims().nAudioCtx())));
                }
            }
        }
    }

    private static TranscribeOptions options(Task task, EncoderContext context) {
        TranscribeOptions o = TranscribeOptions.defaults();
        DecodingOptions d = o.decoding().withTask(task).withWithoutTimestamps(true);
        return o.withDecoding(d).withEncoderContext(context);
    }

    /** Sample i, then the following samples of its language with 0.5 s pauses, cut to {@code seconds}. */
    static float[] clip(List<float[]> audio, List<String[]> rows, int i, boolean multi, int seconds) {
        float[] out = new float[seconds * RATE];
        int at = 0;
        int pause = RATE / 2;
        for (int k = 0; at < out.length; k++) {
            int j = (i + k) % rows.size();
            if (multi && !rows.get(j)[1].equals(rows.get(i)[1])) {
                continue;
            }
            float[] a = audio.get(j);
            int n = Math.min(a.length, out.length - at);
            System.arraycopy(a, 0, out, at, n);
            at += n + pause;
        }
        return out;
    }

    /** Word-level edit distance of {@code hyp} to {@code ref}, over the words of {@code ref}. */
    static double wordErrorRate(String ref, String hyp) {
        String[] r = words(ref);
        String[] h = words(hyp);
        int[] prev = new int[h.length + 1];
        int[] cur = new int[h.length + 1];
        for (int j = 0; j <= h.length; j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= r.length; i++) {
            cur[0] = i;
            for (int j = 1; j <= h.length; j++) {
                int sub = prev[j - 1] + (r[i - 1].equals(h[j - 1]) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return r.length == 0 ? (h.length == 0 ? 0 : 1) : prev[h.length] / (double) r.length;
    }

    private static String[] words(String s) {
        String t = s.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}' ]", " ").strip();
        return t.isEmpty() ? new String[0] : t.split("\\s+");
    }

    private static final class Row {
        private int clips;
        private int exact;
        private double errors;
        private double words;
        private final List<Double> fullMs = new ArrayList<>();
        private final List<Double> autoMs = new ArrayList<>();

        void add(TranscriptionResult full, TranscriptionResult auto) {
            clips++;
            if (full.strippedText().equals(auto.strippedText())) {
                exact++;
            }
            int n = words(full.strippedText()).length;
            errors += wordErrorRate(full.strippedText(), auto.strippedText()) * n;
            words += n;
            fullMs.add(full.timings().encoderMillis() / full.timings().encodedWindows());
            autoMs.add(auto.timings().encoderMillis() / auto.timings().encodedWindows());
        }

        String markdown(String set, Task task, int seconds, int positions) {
            double f = median(fullMs);
            double a = median(autoMs);
            return String.format(Locale.ROOT, "| %s | %s | %d s | %d | %d | %d/%d | %.1f %% | %.0f | %.0f | %.2fx |",
                    set, task.name().toLowerCase(Locale.ROOT), seconds, clips, positions, exact, clips,
                    words == 0 ? 0 : 100 * errors / words, f, a, f / a);
        }

        private static double median(List<Double> v) {
            double[] s = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
        }
    }
}
