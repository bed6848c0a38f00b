package dev.dictum.whisper.session;

import dev.dictum.whisper.format.GenerationConfig;
import dev.dictum.whisper.model.DecoderState;
import dev.dictum.whisper.model.EncodedAudio;
import dev.dictum.whisper.model.ForwardingDecoderState;
import dev.dictum.whisper.model.Preempted;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.model.WhisperInference;
import dev.dictum.whisper.tokenizer.Vocabulary;
import java.util.function.BooleanSupplier;

/**
 * A model whose work can be called off: before every decoder step and between the encoder's layers
 * it asks {@code wanted}, and throws {@link Preempted} (a CancellationException) once the answer is
 * no. A speculative transcription that a newer one or a cancel made useless, or a warm-up that a
 * real dictation overtook, thus stops within one decoder step or one encoder layer.
 * Closing it leaves the model open: the engine owns that.
 */
final class PreemptibleInference implements WhisperInference {
    private final WhisperInference model;
    private final BooleanSupplier wanted;

    PreemptibleInference(WhisperInference model, BooleanSupplier wanted) {
        this.model = model;
        this.wanted = wanted;
    }

    private void check() {
        if (!wanted.getAsBoolean()) {
            throw new Preempted("before a decoder step");
        }
    }

    @Override
    public WhisperDims dims() {
        return model.dims();
    }

    @Override
    public Vocabulary vocabulary() {
        return model.vocabulary();
    }

    @Override
    public GenerationConfig generation() {
        return model.generation();
    }

    @Override
    public EncodedAudio encode(float[] logMel) {
        return encode(logMel, model.dims().nAudioCtx());
    }

    @Override
    public EncodedAudio encode(float[] logMel, int positions) {
        return model.encode(logMel, positions, wanted);
    }

    @Override
    public DecoderState newDecoder(int maxBatch) {
        return new ForwardingDecoderState(model.newDecoder(maxBatch)) {
            @Override
            public void feed(int[][] tokens, float[][] logits) {
                check();
                inner.feed(tokens, logits);
            }

            @Override
            public void feedAll(int[] tokens, int from, float[][] logits) {
                check();
                inner.feedAll(tokens, from, logits);
            }
        };
    }

    @Override
    public void close() {
        // the engine owns the model
    }
}
