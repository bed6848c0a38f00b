package dev.dictum.whisper.format.hf;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Hugging Face Whisper tensor names to the canonical (OpenAI checkpoint) names of
 * {@link dev.dictum.whisper.format.WeightSource}. A WhisperForConditionalGeneration checkpoint
 * prefixes everything with {@code model.}; a bare WhisperModel does not; both are accepted.
 */
final class HfTensorNames {
    /** The tied output projection: same values as the token embedding. */
    static final String OUTPUT_PROJECTION = "proj_out.weight";

    private static final Pattern LAYER = Pattern.compile("(encoder|decoder)\\.layers\\.(\\d+)\\.(.+)");

    /** Parts of a layer: attention projections, norms, the two MLP matrices. */
    private static final Map<String, String> LAYER_PARTS = Map.ofEntries(
            Map.entry("self_attn.q_proj", "attn.query"),
            Map.entry("self_attn.k_proj", "attn.key"),
            Map.entry("self_attn.v_proj", "attn.value"),
            Map.entry("self_attn.out_proj", "attn.out"),
            Map.entry("self_attn_layer_norm", "attn_ln"),
            Map.entry("encoder_attn.q_proj", "cross_attn.query"),
            Map.entry("encoder_attn.k_proj", "cross_attn.key"),
            Map.entry("encoder_attn.v_proj", "cross_attn.value"),
            Map.entry("encoder_attn.out_proj", "cross_attn.out"),
            Map.entry("encoder_attn_layer_norm", "cross_attn_ln"),
            Map.entry("fc1", "mlp.0"),
            Map.entry("fc2", "mlp.2"),
            Map.entry("final_layer_norm", "mlp_ln"));

    /** Tensors outside the layers. */
    private static final Map<String, String> TOP_LEVEL = Map.ofEntries(
            Map.entry("encoder.conv1.weight", "encoder.conv1.weight"),
            Map.entry("encoder.conv1.bias", "encoder.conv1.bias"),
            Map.entry("encoder.conv2.weight", "encoder.conv2.weight"),
            Map.entry("encoder.conv2.bias", "encoder.conv2.bias"),
            Map.entry("encoder.embed_positions.weight", "encoder.positional_embedding"),
            Map.entry("encoder.layer_norm.weight", "encoder.ln_post.weight"),
            Map.entry("encoder.layer_norm.bias", "encoder.ln_post.bias"),
            Map.entry("decoder.embed_tokens.weight", "decoder.token_embedding.weight"),
            Map.entry("decoder.embed_positions.weight", "decoder.positional_embedding"),
            Map.entry("decoder.layer_norm.weight", "decoder.ln.weight"),
            Map.entry("decoder.layer_norm.bias", "decoder.ln.bias"));

    private HfTensorNames() {
    }

    /** The canonical name of a Hugging Face tensor, or null if it is not part of the Whisper model proper. */
    static String toCanonical(String hfName) {
        String name = hfName.startsWith("model.") ? hfName.substring("model.".length()) : hfName;
        String top = TOP_LEVEL.get(name);
        if (top != null) {
            return top;
        }
        Matcher m = LAYER.matcher(name);
        if (!m.matches()) {
            return null;
        }
        String rest = m.group(3);
        int dot = rest.lastIndexOf('.');
        if (dot < 0) {
            return null;
        }
        String part = LAYER_PARTS.get(rest.substring(0, dot));
        String kind = rest.substring(dot + 1);
        if (part == null || !(kind.equals("weight") || kind.equals("bias"))) {
            return null;
        }
        return m.group(1) + ".blocks." + m.group(2) + "." + part + "." + kind;
    }
}
