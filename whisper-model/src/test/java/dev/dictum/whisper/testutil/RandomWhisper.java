package dev.dictum.whisper.testutil;

import dev.dictum.whisper.format.WhisperTensorLayout;
import dev.dictum.whisper.format.WhisperDims;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Random-weight Whisper models with real dimensions, as canonical (OpenAI-named) f32 tensors, for
 * tests of the three file formats and of the engine at every size. Deterministic for a seed. The
 * scales keep activations in a sane range: linear weights ~ N(0, 1/sqrt(in)), LayerNorm gains ~ 1.
 * Never committed: tests write them to temporary folders with the format writers.
 */
public final class RandomWhisper {

    /** One canonical tensor: PyTorch-order shape and row-major f32 values. */
    public record Tensor(long[] shape, float[] values) {
    }

    public static final WhisperDims TINY = new WhisperDims(80, 1500, 384, 6, 4, 51865, 448, 384, 6, 4);
    public static final WhisperDims TINY_EN = new WhisperDims(80, 1500, 384, 6, 4, 51864, 448, 384, 6, 4);
    public static final WhisperDims BASE = new WhisperDims(80, 1500, 512, 8, 6, 51865, 448, 512, 8, 6);
    public static final WhisperDims SMALL = new WhisperDims(80, 1500, 768, 12, 12, 51865, 448, 768, 12, 12);
    public static final WhisperDims MEDIUM = new WhisperDims(80, 1500, 1024, 16, 24, 51865, 448, 1024, 16, 24);
    public static final WhisperDims LARGE_V3 = new WhisperDims(128, 1500, 1280, 20, 32, 51866, 448, 1280, 20, 32);
    public static final WhisperDims LARGE_V3_TURBO = new WhisperDims(128, 1500, 1280, 20, 32, 51866, 448, 1280, 20, 4);

    private RandomWhisper() {
    }

    /**
     * Names and shapes of all tensors of a model with these dimensions, in a stable order. Values
     * come from {@link #values} one tensor at a time, so that writers stream a large-v3 (1.5 G
     * values) without holding it on the heap.
     */
    public static Map<String, long[]> shapes(WhisperDims d) {
        return WhisperTensorLayout.shapes(d);
    }

    /** The values of one tensor of {@link #shapes}: deterministic in (seed, name). */
    public static Tensor values(String name, long[] shape, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + name.hashCode());
        if (name.equals("encoder.positional_embedding")) {
            return sinusoids((int) shape[0], (int) shape[1]);
        }
        if (name.endsWith("ln.weight") || name.endsWith("ln_post.weight")) {
            Tensor w = normal(rnd, 0.1, shape);
            for (int i = 0; i < w.values().length; i++) {
                w.values()[i] += 1f;
            }
            return w;
        }
        if (name.endsWith(".bias")) {
            return normal(rnd, 0.02, shape);
        }
        if (name.equals("decoder.token_embedding.weight")) {
            return normal(rnd, 0.5, shape);
        }
        if (name.equals("decoder.positional_embedding")) {
            return normal(rnd, 0.01, shape);
        }
        long fanIn = 1;
        for (int i = 1; i < shape.length; i++) {
            fanIn *= shape[i];
        }
        return normal(rnd, 1 / Math.sqrt(fanIn), shape);
    }

    /** Convenience for small models: every tensor generated at once. */
    public static Map<String, Tensor> generate(WhisperDims d, long seed) {
        Map<String, Tensor> out = new LinkedHashMap<>();
        shapes(d).forEach((n, s) -> out.put(n, values(n, s, seed)));
        return out;
    }

    /**
     * Zero-mean values with standard deviation sigma. Uniform on [−√3σ, √3σ] rather than Gaussian:
     * the same variance, and a large-v3 (1.5 G values, written once per format) generates in
     * seconds instead of minutes.
     */
    private static Tensor normal(SplittableRandom rnd, double sigma, long... shape) {
        long n = 1;
        for (long s : shape) {
            n *= s;
        }
        float[] v = new float[Math.toIntExact(n)];
        float half = (float) (Math.sqrt(3) * sigma);
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) (rnd.nextDouble() * 2 - 1) * half;
        }
        return new Tensor(shape, v);
    }

    /** OpenAI's fixed encoder positions: sin of the first half of channels, cos of the second. */
    public static Tensor sinusoids(int length, int channels) {
        float[] v = new float[length * channels];
        int half = channels / 2;
        double logInc = Math.log(10000) / (half - 1);
        for (int p = 0; p < length; p++) {
            for (int i = 0; i < half; i++) {
                double a = p * Math.exp(-logInc * i);
                v[p * channels + i] = (float) Math.sin(a);
                v[p * channels + half + i] = (float) Math.cos(a);
            }
        }
        return new Tensor(new long[] {length, channels}, v);
    }
}
