package dev.dictum.whisper.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.gpu.DType;
import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.whisper.decode.DecodingOptions;
import dev.dictum.whisper.decode.DecodingResult;
import dev.dictum.whisper.decode.DecodingTask;
import dev.dictum.whisper.mel.LogMel;
import dev.dictum.whisper.model.DecoderState;
import dev.dictum.whisper.model.EncodedAudio;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.testutil.Ct2Writer;
import dev.dictum.whisper.testutil.GgmlWriter;
import dev.dictum.whisper.testutil.RandomWhisper;
import dev.dictum.whisper.testutil.SafetensorsWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every Whisper size loads from each of the three formats and transcribes 30 s of audio on this
 * machine, and the same weights give the same tokens whichever file they came from. The models
 * are random (generated here, never committed) with real dimensions; written in f32 in every
 * format so that the three files hold bit-identical weights. The 30 s are one window: log-mel,
 * encoder, then a greedy decoding pass of a few tokens (random weights never say end-of-text;
 * the point is loading and the forward pass at real shapes).
 */
class RealSizesTest {
    private static final long SEED = 20261122;
    private static final int TOKENS = 6;

    @TempDir
    Path tmp;

    static Stream<Arguments> sizes() {
        String only = System.getProperty("dictum.sizes", "");
        Map<String, WhisperDims> all = new LinkedHashMap<>();
        all.put("tiny.en", RandomWhisper.TINY_EN);
        all.put("tiny", RandomWhisper.TINY);
        all.put("base", RandomWhisper.BASE);
        all.put("small", RandomWhisper.SMALL);
        all.put("medium", RandomWhisper.MEDIUM);
        all.put("large-v3", RandomWhisper.LARGE_V3);
        all.put("large-v3-turbo", RandomWhisper.LARGE_V3_TURBO);
        return all.entrySet().stream().filter(e -> only.isEmpty() || List.of(only.split(",")).contains(e.getKey()))
                .map(e -> Arguments.of(e.getKey(), e.getValue()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sizes")
    void loadsFromEveryFormatAndGivesTheSameTokens(String name, WhisperDims dims) throws IOException {
        float[] audio = EngineBenchmark.syntheticAudio(30);
        DecodingOptions options = DecodingOptions.defaults().withLanguage("en").withWithoutTimestamps(true)
                .withSampleLen(TOKENS);
        Map<String, List<Integer>> tokens = new LinkedHashMap<>();
        tokens.put("hf", transcribe(SafetensorsWriter.writeModel(tmp.resolve("hf"), dims, SEED, DType.F32), audio,
                options));
        tokens.put("ggml", transcribe(GgmlWriter.write(tmp.resolve("ggml.bin"), dims, SEED, GgmlWriter.Type.F32).file(),
                audio, options));
        tokens.put("ct2", transcribe(Ct2Writer.write(tmp.resolve("ct2"), dims, SEED, Ct2Writer.Type.FLOAT32).dir(),
                audio, options));
        System.out.printf("%s: tokens %s%n", name, tokens);
        assertThat(tokens.get("ggml")).as("ggml vs hf, %s", name).isEqualTo(tokens.get("hf"));
        assertThat(tokens.get("ct2")).as("ct2 vs hf, %s", name).isEqualTo(tokens.get("hf"));
    }

    /**
     * Loads, transcribes, closes, and deletes the model (a large-v3 in f32 is 6 GB). The tokens are
     * those the decoding pass produced, before segmenting: random weights often pick special or
     * timestamp tokens, which the transcript would (rightly) drop.
     */
    private static List<Integer> transcribe(Path model, float[] audio, DecodingOptions options) {
        long t0 = System.nanoTime();
        try (WhisperEngine e = WhisperEngine.load(model, new CpuBackend());
                EncodedAudio encoded = e.model().encode(new LogMel(e.model().dims().nMels()).window(audio));
                DecoderState state = e.model().newDecoder(1)) {
            long t1 = System.nanoTime();
            DecodingResult r = new DecodingTask(e.model(), e.codec(), options).run(encoded, state, new SplittableRandom(1));
            System.out.printf("  %s: load+encode %.1f s, decode %.1f s%n", model.getFileName(), (t1 - t0) / 1e9,
                    (System.nanoTime() - t1) / 1e9);
            // The encoder output's bits join the tokens: equal weights must give an identical forward pass.
            List<Integer> out = new java.util.ArrayList<>(Arrays.stream(r.tokens()).boxed().toList());
            out.add(0, Arrays.hashCode(encoded.toHost()));
            return out;
        } finally {
            delete(model);
        }
    }

    private static void delete(Path p) {
        try (Stream<Path> s = Files.walk(p)) {
            s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
