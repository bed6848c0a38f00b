package dev.dictum.whisper.format;

import dev.dictum.gpu.HostTensor;
import dev.dictum.whisper.tokenizer.Vocabulary;
import java.util.Set;

/**
 * One opened model, whatever its file format: the dimensions, the weights under their canonical
 * (OpenAI checkpoint) names, the vocabulary and the generation defaults. Tensors are slices of
 * memory-mapped files, valid until {@link #close()}, which unmaps them (the source owns its arena).
 *
 * <p>Canonical names (as in OpenAI's checkpoints and whisper.cpp's ggml files):
 * {@code encoder.conv1.weight [n_state, n_mels, 3]}, {@code encoder.conv1.bias [n_state]},
 * {@code encoder.conv2.weight [n_state, n_state, 3]}, {@code encoder.conv2.bias},
 * {@code encoder.positional_embedding [n_audio_ctx, n_state]},
 * {@code encoder.blocks.N.attn.query.weight/bias}, {@code .attn.key.weight} (no bias),
 * {@code .attn.value.weight/bias}, {@code .attn.out.weight/bias}, {@code .attn_ln.weight/bias},
 * {@code .mlp.0.weight/bias [4n, n]}, {@code .mlp.2.weight/bias [n, 4n]}, {@code .mlp_ln.weight/bias},
 * {@code encoder.ln_post.weight/bias}; {@code decoder.token_embedding.weight [n_vocab, n_state]},
 * {@code decoder.positional_embedding [n_text_ctx, n_state]}, {@code decoder.blocks.N.attn.*},
 * {@code .cross_attn.*} (same parts as attn), {@code .cross_attn_ln.*}, {@code .mlp.*}, {@code .mlp_ln.*},
 * {@code decoder.ln.weight/bias}. The output projection is tied to the token embedding.
 */
public interface WeightSource extends AutoCloseable {

    /** What the user pointed at, for messages. */
    String description();

    WhisperDims dims();

    /** Canonical names of all tensors this source provides. */
    Set<String> names();

    /**
     * The tensor with this canonical name, checked against {@code expectedShape}.
     *
     * @throws ModelFormatException if it is missing or its shape differs
     */
    HostTensor tensor(String canonicalName, long... expectedShape);

    Vocabulary vocabulary();

    GenerationConfig generation();

    @Override
    void close();
}
