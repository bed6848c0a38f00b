package dev.dictum.whisper.model;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Buffer;
import dev.dictum.whisper.format.GenerationConfig;
import dev.dictum.whisper.format.WeightSource;
import dev.dictum.whisper.tokenizer.Vocabulary;

/**
 * A Whisper model loaded onto a backend: the encoder and decoder graphs written once against the
 * backend ops. Owns the weight source (closing the model unmaps the file) and the backend's copies.
 * Thread-safe for concurrent decoders; encoding runs one window at a time.
 */
public final class WhisperModel implements WhisperInference {
    private final WeightSource source;
    private final Backend backend;
    private final AudioEncoder encoder;
    private final TextDecoder decoder;

    private WhisperModel(WeightSource source, Backend backend) {
        this.source = source;
        this.backend = backend;
        this.encoder = new AudioEncoder(source, backend);
        this.decoder = new TextDecoder(source, backend);
    }

    /** Loads every weight of {@code source} onto {@code backend}; on failure closes the source. */
    public static WhisperModel load(WeightSource source, Backend backend) {
        try {
            return new WhisperModel(source, backend);
        } catch (RuntimeException e) {
            source.close();
            throw e;
        }
    }

    public Backend backend() {
        return backend;
    }

    public WeightSource source() {
        return source;
    }

    @Override
    public WhisperDims dims() {
        return source.dims();
    }

    @Override
    public Vocabulary vocabulary() {
        return source.vocabulary();
    }

    @Override
    public GenerationConfig generation() {
        return source.generation();
    }

    @Override
    public EncodedAudio encode(float[] logMel) {
        WhisperDims d = dims();
        Buffer out = backend.allocate((long) d.nAudioCtx() * d.nAudioState());
        try {
            encoder.encode(logMel, out);
            return decoder.project(backend, out);
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    @Override
    public DecoderState newDecoder(int maxBatch) {
        return new KvDecoderState(backend, decoder, maxBatch);
    }

    @Override
    public void close() {
        encoder.releaseScratch();
        backend.close();
        source.close();
    }
}
