package dev.dictum.whisper.session;

import dev.dictum.whisper.format.GenerationConfig;
import dev.dictum.whisper.model.DecoderState;
import dev.dictum.whisper.model.EncodedAudio;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.model.WhisperInference;
import dev.dictum.whisper.tokenizer.Vocabulary;

/**
 * A model whose decoders a test wraps (to count, slow down or watch their feeds); everything else
 * goes to the wrapped model, which the test owns (closing this closes nothing).
 */
abstract class DecoderWrappingInference implements WhisperInference {
    final WhisperInference m;

    DecoderWrappingInference(WhisperInference m) {
        this.m = m;
    }

    /** The decoder handed out for {@code inner}, the wrapped model's. */
    abstract DecoderState wrap(DecoderState inner);

    @Override
    public final DecoderState newDecoder(int maxBatch) {
        return wrap(m.newDecoder(maxBatch));
    }

    @Override
    public WhisperDims dims() {
        return m.dims();
    }

    @Override
    public Vocabulary vocabulary() {
        return m.vocabulary();
    }

    @Override
    public GenerationConfig generation() {
        return m.generation();
    }

    @Override
    public EncodedAudio encode(float[] logMel) {
        return m.encode(logMel);
    }

    @Override
    public void close() {
    }
}
