package dev.dictum.app.cli;

import dev.dictum.audio.Audio16kStream;
import dev.dictum.audio.AudioInput;
import dev.dictum.gpu.select.Backends;
import dev.dictum.whisper.decode.DecodingOptions;
import dev.dictum.whisper.decode.Task;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.decode.TranscriptionResult;
import dev.dictum.whisper.session.TranscriptionSession;
import dev.dictum.whisper.session.WhisperEngine;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code dictum transcribe}: WAV files in, text (or segments, or JSON) out. */
@Command(name = "transcribe", mixinStandardHelpOptions = true,
        description = "Transcribe (or translate to English) WAV files. The transcript goes to stdout; the detected"
                + " language and progress to stderr.")
final class TranscribeCommand extends ModelCommand {

    @Option(names = {"-l", "--language"}, defaultValue = "auto", paramLabel = "xx",
            description = "Spoken language code (en, de, fr, ...) or auto to detect it (default).")
    String language;

    @Option(names = "--task", defaultValue = "transcribe", paramLabel = "TASK",
            description = "transcribe (default) or translate (to English).")
    String task;

    @Option(names = "--beam", paramLabel = "N", description = "Beam search with N beams (default: greedy).")
    Integer beam;

    @Option(names = "--best-of", paramLabel = "N",
            description = "Samples to draw when falling back to a temperature above 0 (default 1).")
    Integer bestOf;

    @Option(names = "--patience", paramLabel = "P", description = "Beam search patience (default 1.0).")
    Double patience;

    @Option(names = "--length-penalty", paramLabel = "A", description = "Length penalty alpha in [0, 1] for ranking.")
    Double lengthPenalty;

    @Option(names = "--no-fallback", description = "Never retry a window at a higher temperature.")
    boolean noFallback;

    @Option(names = "--initial-prompt", paramLabel = "TEXT", description = "Text to condition the first window on.")
    String initialPrompt;

    @Option(names = "--no-condition", description = "Do not feed each window's text to the next as a prompt.")
    boolean noCondition;

    @Option(names = "--audio-ctx", defaultValue = "full", paramLabel = "full|auto|N",
            description = "Encoder context for audio of up to 30 s: full (default), auto (the speech length, faster,"
                    + " less accurate with stock models) or N positions (1-1500; whisper.cpp's audio_ctx).")
    String audioCtx;

    @Option(names = "--timestamps", description = "Decode with timestamps and print one line per segment.")
    boolean timestamps;

    @Option(names = "--json", description = "Print JSON: text, segments, tokens with probabilities, language, timings.")
    boolean json;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "WAV files (PCM 8-48 kHz, any channels).")
    List<Path> files = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
        Logging.configure(common.verbose);
        Task t = switch (task.toLowerCase(Locale.ROOT)) {
            case "transcribe" -> Task.TRANSCRIBE;
            case "translate" -> Task.TRANSLATE;
            default -> throw new CommandLine.ParameterException(spec.commandLine(),
                    "--task must be transcribe or translate, not '" + task + "'");
        };
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (WhisperEngine engine = WhisperEngine.load(common.model, Backends.open(common.backend))) {
            TranscribeOptions options = options(engine, t);
            JsonReport report = json ? new JsonReport(engine, common.backend) : null;
            boolean many = files.size() > 1;
            for (Path file : files) {
                long t0 = System.nanoTime();
                Transcript tr = transcribe(engine, file, options, err);
                double seconds = (System.nanoTime() - t0) / 1e9;
                TranscriptionResult r = tr.result();
                if (report != null) {
                    report.add(file, r, tr.audioSeconds(), tr.melNanos(), seconds);
                    continue;
                }
                if ("auto".equalsIgnoreCase(language) && engine.multilingual()) {
                    Double p = r.languageProbabilities() == null ? null : r.languageProbabilities().get(r.language());
                    err.printf(Locale.ROOT, "%sdetected language: %s%s%n", many ? file + ": " : "", r.language(),
                            p == null ? "" : String.format(Locale.ROOT, " (p=%.2f)", p));
                }
                if (many) {
                    out.println("==> " + file + " <==");
                }
                if (timestamps) {
                    SegmentLines.print(r, out);
                } else {
                    out.println(r.strippedText());
                }
                out.flush();
                err.flush();
            }
            if (report != null) {
                report.print(out);
            }
        }
        return 0;
    }

    private TranscribeOptions options(WhisperEngine engine, Task t) {
        String lang = "auto".equalsIgnoreCase(language) ? null : language.toLowerCase(Locale.ROOT);
        if (lang != null && !engine.languageCodes().contains(lang)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "unknown language '" + language
                    + "' (use a Whisper language code such as en, de, fr, or auto)");
        }
        if (lang != null && !lang.equals("en") && !engine.multilingual()) {
            throw new IllegalArgumentException("this model is English-only; it cannot transcribe '" + lang + "'");
        }
        if (beam != null && beam < 1 || bestOf != null && bestOf < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--beam and --best-of must be at least 1");
        }
        DecodingOptions d = DecodingOptions.defaults().withTask(t).withLanguage(lang)
                .withWithoutTimestamps(!timestamps);
        if (beam != null && beam > 1) {
            d = d.withBeamSize(beam).withPatience(patience);
        } else if (patience != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--patience needs --beam N (N > 1)");
        }
        if (lengthPenalty != null) {
            d = d.withLengthPenalty(lengthPenalty);
        }
        if (bestOf != null && bestOf > 1) {
            d = d.withBestOf(bestOf);
        }
        d.withBestOf(null).validated();
        TranscribeOptions o = TranscribeOptions.defaults().withDecoding(d).withConditionOnPreviousText(!noCondition)
                .withInitialPrompt(initialPrompt).withEncoderContext(AudioCtxOption.parse(spec, audioCtx));
        return noFallback ? o.withTemperatures(0.0) : o;
    }

    private record Transcript(TranscriptionResult result, double audioSeconds, long melNanos) {
    }

    private static Transcript transcribe(WhisperEngine engine, Path file, TranscribeOptions options, PrintWriter err)
            throws IOException {
        try (Audio16kStream audio = AudioInput.open(file)) {
            TerminalProgress progress = TerminalProgress.forAudio(err, file, audio.expectedSamples());
            try (TranscriptionSession session = engine.startSession(options, progress)) {
                float[] buf = new float[16000];
                int n;
                while ((n = audio.read(buf)) > 0) {
                    session.feed(buf, 0, n);
                }
                TranscriptionResult r = session.finish();
                progress.done();
                return new Transcript(r, session.secondsFed(), session.melNanos());
            }
        }
    }
}
