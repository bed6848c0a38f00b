package dev.dictum.app.bench;

import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Writes a random-weight whisper.cpp ggml file of a real Whisper size (tiny: 80 mels, 384 state,
 * 6 heads, 4+4 layers, n_vocab 51865), for speed comparisons where no pretrained weights are at
 * hand. It calls whisper-model's test utility {@code dev.dictum.whisper.testutil.GgmlWriter} with
 * {@code RandomWhisper.TINY} (etc.) by reflection, so that this test-scope folder of module app
 * compiles without a dependency on whisper-model's test classes; at run time the classpath must
 * hold whisper-model/target/test-classes and its test classpath, and -Ddictum.testdata must point
 * at testdata/ (the writer copies the real BPE vocabulary and mel filters from the toy models).
 * scripts/bench-vs-whispercpp.sh --make-random-ggml OUT.bin [SIZE [TYPE [SEED]]] does all that.
 *
 * <p>Random weights: the decoder never emits EOT, so a greedy run goes on to max-tokens
 * (whisper.cpp's cap is n_text_ctx/2 - 4 = 220); the transcript is garbage but the per-token time
 * is that of a real model of this size at those positions.
 *
 * <pre>RandomGgml OUT.bin [tiny|tiny_en|base|small|medium|large_v3|large_v3_turbo] [F32|F16|Q8_0|Q5_0|Q5_1|Q4_0] [SEED]</pre>
 */
public final class RandomGgml {

    private RandomGgml() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length > 4) {
            System.err.println("usage: RandomGgml OUT.bin [tiny|tiny_en|base|small|medium|large_v3|large_v3_turbo]"
                    + " [F32|F16|Q8_0|Q5_0|Q5_1|Q4_0] [SEED]");
            System.exit(2);
        }
        Path out = Path.of(args[0]);
        String size = (args.length > 1 ? args[1] : "tiny").toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
        String type = (args.length > 2 ? args[2] : "F16").toUpperCase(Locale.ROOT);
        long seed = args.length > 3 ? Long.parseLong(args[3]) : 1L;

        Class<?> random;
        Class<?> writer;
        try {
            random = Class.forName("dev.dictum.whisper.testutil.RandomWhisper");
            writer = Class.forName("dev.dictum.whisper.testutil.GgmlWriter");
        } catch (ClassNotFoundException e) {
            System.err.println("RandomGgml: whisper-model's test classes (GgmlWriter, RandomWhisper) are not on the"
                    + " classpath: build them with mvn -pl whisper-model -am test-compile (" + e.getMessage() + ")");
            System.exit(2);
            return;
        }
        Object dims = random.getField(size).get(null);
        Class<?> typeEnum = Class.forName("dev.dictum.whisper.testutil.GgmlWriter$Type");
        Object t = typeEnum.getMethod("valueOf", String.class).invoke(null, type);
        Method write = writer.getMethod("write", Path.class, dims.getClass(), long.class, typeEnum);
        if (out.toAbsolutePath().getParent() != null) {
            Files.createDirectories(out.toAbsolutePath().getParent());
        }
        long t0 = System.nanoTime();
        try {
            write.invoke(null, out, dims, seed, t);
        } catch (ReflectiveOperationException | RuntimeException | Error e) {
            Files.deleteIfExists(out); // no half-written model left behind
            throw e;
        }
        System.err.printf(Locale.ROOT, "wrote %s: %s %s seed %d, %.1f MB in %.1f s (%s)%n", out, size, type, seed,
                Files.size(out) / 1e6, (System.nanoTime() - t0) / 1e9, dims);
    }
}
