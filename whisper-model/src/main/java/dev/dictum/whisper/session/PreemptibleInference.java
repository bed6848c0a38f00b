package dev.dictum.whisper.session;

import dev.dictum.whisper.format.GenerationConfig;
import dev.dictum.whisper.model.DecoderState;
import dev.dictum.whisper.model.EncodedAudio;
import dev.dictum.whisper.model.ForwardingDecoderState;
import dev.dictum.whisper.model.WhisperDims;
import dev.dictum.whisper.model.WhisperInference;
import dev.dictum.whisper.tokenizer.Vocabulary;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * A model whose work can be called off: before every decoder step and before and after every
 * encoder pass it asks {@code wanted}, and throws {@link CancellationException} once the answer is
 * no. A speculative transcription that a newer one or a cancel made useless thus stops within one
 * decoder step (an encoder pass that has begun runs to its end: the backends cannot stop one).
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
            throw new CancellationException("preempted");
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
        check();
        EncodedAudio audio = positions == model.dims().nAudioCtx() ? model.encode(logMel)
                : model.encode(logMel, positions);
        if (!wanted.getAsBoolean()) {
            audio.close();
            throw new CancellationException("preempted");
        }
        return audio;
    }

    @Override
    public DecoderState newDecoder(int maxBatch) {
        return new ForwardingDecoderState(model.newDecoder(maxBatch)) {
            @Override
            public void feed(int[][] tokens, float[][] logits) {
                check();
                inner.feed(tokens, logits);
            }
        };
    }

    @Override
    public void close() {
        // the engine owns the model
    }
}
