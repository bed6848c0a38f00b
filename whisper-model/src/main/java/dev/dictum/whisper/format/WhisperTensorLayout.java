package dev.dictum.whisper.format;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The canonical tensors of a Whisper model (see {@link WeightSource}) and their PyTorch-order
 * shapes, for checking what a file provides before anything runs on it.
 */
public final class WhisperTensorLayout {
    private WhisperTensorLayout() {
    }

    /** Canonical name to shape, encoder first, in checkpoint order. */
    public static Map<String, long[]> shapes(WhisperDims d) {
        Map<String, long[]> t = new LinkedHashMap<>();
        int na = d.nAudioState();
        t.put("encoder.conv1.weight", new long[] {na, d.nMels(), 3});
        t.put("encoder.conv1.bias", new long[] {na});
        t.put("encoder.conv2.weight", new long[] {na, na, 3});
        t.put("encoder.conv2.bias", new long[] {na});
        t.put("encoder.positional_embedding", new long[] {d.nAudioCtx(), na});
        for (int i = 0; i < d.nAudioLayer(); i++) {
            block(t, "encoder.blocks." + i, na, false);
        }
        t.put("encoder.ln_post.weight", new long[] {na});
        t.put("encoder.ln_post.bias", new long[] {na});
        int nt = d.nTextState();
        t.put("decoder.token_embedding.weight", new long[] {d.nVocab(), nt});
        t.put("decoder.positional_embedding", new long[] {d.nTextCtx(), nt});
        for (int i = 0; i < d.nTextLayer(); i++) {
            block(t, "decoder.blocks." + i, nt, true);
        }
        t.put("decoder.ln.weight", new long[] {nt});
        t.put("decoder.ln.bias", new long[] {nt});
        return Collections.unmodifiableMap(t);
    }

    /**
     * Whether a file's shape is the canonical one up to dimensions of size 1, as ggml's conv biases
     * ({@code [n_state, 1]}) are; the data is contiguous, so such a shape is reinterpreted for free.
     */
    public static boolean sameUpToUnitDims(long[] fileShape, long[] canonical) {
        return Arrays.equals(Arrays.stream(fileShape).filter(x -> x != 1).toArray(),
                Arrays.stream(canonical).filter(x -> x != 1).toArray());
    }

    private static void block(Map<String, long[]> t, String p, int n, boolean cross) {
        attention(t, p + ".attn", n);
        norm(t, p + ".attn_ln", n);
        if (cross) {
            attention(t, p + ".cross_attn", n);
            norm(t, p + ".cross_attn_ln", n);
        }
        t.put(p + ".mlp.0.weight", new long[] {4L * n, n});
        t.put(p + ".mlp.0.bias", new long[] {4L * n});
        t.put(p + ".mlp.2.weight", new long[] {n, 4L * n});
        t.put(p + ".mlp.2.bias", new long[] {n});
        norm(t, p + ".mlp_ln", n);
    }

    private static void attention(Map<String, long[]> t, String p, int n) {
        t.put(p + ".query.weight", new long[] {n, n});
        t.put(p + ".query.bias", new long[] {n});
        t.put(p + ".key.weight", new long[] {n, n});
        t.put(p + ".value.weight", new long[] {n, n});
        t.put(p + ".value.bias", new long[] {n});
        t.put(p + ".out.weight", new long[] {n, n});
        t.put(p + ".out.bias", new long[] {n});
    }

    private static void norm(Map<String, long[]> t, String p, int n) {
        t.put(p + ".weight", new long[] {n});
        t.put(p + ".bias", new long[] {n});
    }
}
