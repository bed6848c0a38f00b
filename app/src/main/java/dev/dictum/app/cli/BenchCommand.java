package dev.dictum.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dictum.audio.AudioInput;
import dev.dictum.gpu.MemoryReport;
import dev.dictum.gpu.select.Backends;
import dev.dictum.whisper.decode.EncoderContext;
import dev.dictum.whisper.session.EngineBenchmark;
import dev.dictum.whisper.session.WhisperEngine;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dictum bench}: encoder milliseconds per 30-second window, decoder milliseconds per token
 * and per beam-search step (5 sequences by default: issue 12 compares it with the peers' beam-5), and
 * per token of a real beam-search transcription of the last window (issue 22 item 4: the figure the
 * peers' beam-5 transcriptions are compared with), as median / min / max over runs. A measurement tool, not a test: numbers depend on the
 * machine and on what else it is doing.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measure encoder ms per 30 s window, decoder ms per token and per beam step (median, min, max"
                + " over runs).")
final class BenchCommand extends ModelCommand {

    @Option(names = "--seconds", defaultValue = "30", paramLabel = "S",
            description = "Seconds of audio per run (windows of 30 s; default 30).")
    double seconds;

    @Option(names = "--runs", defaultValue = "5", paramLabel = "N", description = "Timed runs after one warm-up (default 5).")
    int runs;

    @Option(names = "--tokens", defaultValue = "64", paramLabel = "T",
            description = "Decoder tokens per run, fed one at a time after the prompt (default 64).")
    int tokens;

    @Option(names = "--warmup", defaultValue = "5", paramLabel = "W",
            description = "Untimed runs first, so the JIT has compiled the hot loops (default 5).")
    int warmup;

    @Option(names = "--beams", defaultValue = "5", paramLabel = "B",
            description = "Sequences of the timed beam-search step (cache reorder + one token each; default 5;"
                    + " 0 or 1: no beam figure).")
    int beams;

    @Option(names = "--audio", paramLabel = "WAV", description = "Audio to encode (default: a synthetic signal).")
    Path audio;

    @Option(names = "--audio-ctx", defaultValue = "full", paramLabel = "full|auto|N",
            description = "Encoder context for audio of up to 30 s: full (default), auto (the speech length)"
                    + " or N positions (1-1500; whisper.cpp's audio_ctx).")
    String audioCtx;

    @Option(names = "--json", description = "Print {\"encoder_ms\":{median,min,max},\"decode_ms_per_token\":{...},"
            + "\"beam_ms_per_step\":{...},\"beam_transcribe_ms_per_token\":{...},"
            + "\"memory_mib\":{peak,steady,by_category,device_...}}.")
    boolean json;

    @Override
    public Integer call() throws IOException {
        Logging.configure(common.verbose);
        if (runs < 1 || tokens < 1 || warmup < 0 || !(seconds > 0) || seconds > 3600 || beams < 0 || beams > 16) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--runs and --tokens must be at least 1, --warmup at least 0, --seconds in (0, 3600],"
                            + " --beams in 0..16");
        }
        EncoderContext context = AudioCtxOption.parse(spec, audioCtx);
        float[] samples = audio == null ? EngineBenchmark.syntheticAudio(seconds) : AudioInput.readMono16k(audio);
        try (WhisperEngine engine = WhisperEngine.load(common.model, Backends.open(common.backend))) {
            EngineBenchmark.Result r = EngineBenchmark.run(engine, samples, warmup, runs, tokens, context, beams);
            PrintWriter out = spec.commandLine().getOut();
            MemoryReport memory = engine.backend().memoryReport();
            if (json) {
                ObjectMapper m = new ObjectMapper();
                ObjectNode o = m.createObjectNode();
                stats(o.putObject("encoder_ms"), r.encoderMs());
                stats(o.putObject("decode_ms_per_token"), r.decodeMsPerToken());
                if (r.beamMsPerStep() != null) {
                    stats(o.putObject("beam_ms_per_step"), r.beamMsPerStep());
                    stats(o.putObject("beam_transcribe_ms_per_token"), r.beamTranscriptionMsPerToken());
                    o.put("beams", r.beams());
                }
                o.put("windows", r.windows());
                o.put("tokens", r.tokens());
                o.put("encoder_positions", r.positions());
                o.put("warmup_runs", warmup);
                o.put("runs", runs);
                o.put("backend", engine.backend().name());
                o.put("model", engine.modelDescription());
                BenchMemory.json(o, memory);
                out.println(m.writeValueAsString(o));
            } else {
                out.printf(Locale.ROOT, "model    %s%nbackend  %s%n", engine.modelDescription(),
                        engine.backend().name());
                out.printf(Locale.ROOT, "encoder  %8.1f ms per 30 s window (median; min %.1f, max %.1f; %d runs x %d windows;"
                        + " %d positions)%n", r.encoderMs().median(), r.encoderMs().min(), r.encoderMs().max(), runs,
                        r.windows(), r.positions());
                out.printf(Locale.ROOT, "decoder  %8.2f ms per token       (median; min %.2f, max %.2f; %d runs x %d tokens)%n",
                        r.decodeMsPerToken().median(), r.decodeMsPerToken().min(), r.decodeMsPerToken().max(), runs,
                        r.tokens());
                if (r.beamMsPerStep() != null) {
                    out.printf(Locale.ROOT, "beam-%d   %8.2f ms per step        (median; min %.2f, max %.2f; cache reorder"
                            + " + one token per sequence)%n", r.beams(), r.beamMsPerStep().median(),
                            r.beamMsPerStep().min(), r.beamMsPerStep().max());
                    out.printf(Locale.ROOT, "beam-%d   %8.2f ms per token       (median; min %.2f, max %.2f; a beam-search"
                            + " transcription: prompt, %d tokens, end of text suppressed)%n", r.beams(),
                            r.beamTranscriptionMsPerToken().median(), r.beamTranscriptionMsPerToken().min(),
                            r.beamTranscriptionMsPerToken().max(), r.tokens());
                }
                BenchMemory.print(out, memory);
            }
            out.flush();
        }
        return 0;
    }

    private static void stats(ObjectNode o, EngineBenchmark.Stats s) {
        o.put("median", s.median());
        o.put("min", s.min());
        o.put("max", s.max());
    }
}
