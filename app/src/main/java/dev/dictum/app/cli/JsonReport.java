package dev.dictum.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dictum.whisper.decode.Segment;
import dev.dictum.whisper.decode.Timings;
import dev.dictum.whisper.decode.TranscriptionResult;
import dev.dictum.whisper.session.WhisperEngine;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;

/**
 * {@code transcribe --json}: per file the text, language and its probabilities, segments with
 * their tokens and token probabilities, and timings (load, mel, encode, decode per token). One
 * file prints one object; several print an array of them.
 */
final class JsonReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private final WhisperEngine engine;
    private final String backend;
    private final ArrayNode files = JSON.createArrayNode();

    JsonReport(WhisperEngine engine, String backend) {
        this.engine = engine;
        this.backend = backend;
    }

    void add(Path file, TranscriptionResult r, double audioSeconds, long melNanos, double wallSeconds) {
        ObjectNode o = files.addObject();
        o.put("file", file.toString());
        o.put("model", engine.modelDescription());
        o.put("backend", engine.backend().name());
        o.put("text", r.strippedText());
        o.put("language", r.language());
        if (r.languageProbabilities() != null && !r.languageProbabilities().isEmpty()) {
            ObjectNode probs = o.putObject("language_probabilities");
            r.languageProbabilities().entrySet().stream()
                    .sorted(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder())).limit(5)
                    .forEach(e -> probs.put(e.getKey(), e.getValue()));
        }
        ArrayNode segs = o.putArray("segments");
        for (Segment s : r.segments()) {
            ObjectNode j = segs.addObject();
            j.put("id", s.id());
            j.put("start", s.start());
            j.put("end", s.end());
            j.put("text", s.text().strip());
            j.put("avg_logprob", s.avgLogprob());
            j.put("compression_ratio", s.compressionRatio());
            j.put("no_speech_prob", s.noSpeechProb());
            j.put("temperature", s.temperature());
            ArrayNode toks = j.putArray("tokens");
            for (int i = 0; i < s.tokens().length; i++) {
                int id = s.tokens()[i];
                ObjectNode t = toks.addObject();
                t.put("id", id);
                t.put("text", engine.isTextToken(id)
                        ? engine.tokenizer().decode(new int[] {id}) : "");
                t.put("p", i < s.tokenProbabilities().length ? s.tokenProbabilities()[i] : Double.NaN);
            }
        }
        Timings t = r.timings();
        ObjectNode tm = o.putObject("timings");
        tm.put("load_ms", engine.loadNanos() / 1e6);
        tm.put("audio_seconds", audioSeconds);
        tm.put("mel_ms", melNanos / 1e6);
        tm.put("encode_ms", t.encoderMillis());
        tm.put("windows", t.encodedWindows());
        tm.put("decode_ms", t.decoderMillis());
        tm.put("decode_steps", t.decodeSteps());
        tm.put("decode_ms_per_token", t.decoderMillisPerToken());
        tm.put("total_ms", wallSeconds * 1000);
    }

    void print(PrintWriter out) {
        try {
            out.println(JSON.writeValueAsString(files.size() == 1 ? files.get(0) : files));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
        }
        out.flush();
    }
}
