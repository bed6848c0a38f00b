package dev.dictum.whisper.model;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Buffer;
import dev.dictum.whisper.format.GenerationConfig;
import dev.dictum.whisper.format.WeightSource;
import dev.dictum.whisper.tokenizer.Vocabulary;
import java.util.function.BooleanSupplier;

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
            WhisperDims d = source.dims();
            backend.checkFits(source.description(), weightElements(d), workingFloats(d));
            return new WhisperModel(source, backend);
        } catch (RuntimeException e) {
            source.close();
            throw e;
        }
    }

    /** Weight values of a Whisper model of these dimensions (biases and norms included). */
    static long weightElements(WhisperDims d) {
        long a = d.nAudioState();
        long t = d.nTextState();
        long encoder = a * d.nMels() * 3 + a * a * 3 + 2 * a + (long) d.nAudioCtx() * a
                + d.nAudioLayer() * (12 * a * a + 13 * a) + 2 * a;
        long decoder = (long) d.nVocab() * t + (long) d.nTextCtx() * t
                + d.nTextLayer() * (16 * t * t + 17 * t) + 2 * t;
        return encoder + decoder;
    }

    /**
     * Floats of activations and caches while transcribing with up to 5 sequences (beams): the
     * encoder's scratch, the cross-attention keys/values and the self-attention caches (twice, for
     * beam reordering), the logits.
     */
    static long workingFloats(WhisperDims d) {
        long frames = 2L * d.nAudioCtx();
        long a = d.nAudioState();
        long t = d.nTextState();
        long encoder = d.nMels() * frames + frames * a + d.nAudioCtx() * a * 9L;
        long cross = 3L * d.nTextLayer() * d.nAudioCtx() * t;
        long caches = 4L * d.nTextLayer() * 5 * d.nTextCtx() * t;
        return encoder + cross + caches + 5L * d.nVocab() + 5L * 4 * t * 8;
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
        return encode(logMel, dims().nAudioCtx());
    }

    @Override
    public EncodedAudio encode(float[] logMel, int positions) {
        return encode(logMel, positions, () -> true);
    }

    @Override
    public EncodedAudio encode(float[] logMel, int positions, BooleanSupplier keepGoing) {
        WhisperDims d = dims();
        if (positions < 1 || positions > d.nAudioCtx()) {
            throw new IllegalArgumentException("encoder positions must be 1.." + d.nAudioCtx() + ", got " + positions);
        }
        Buffer out = backend.allocate((long) positions * d.nAudioState());
        try {
            encoder.encode(logMel, positions, out, keepGoing);
            if (!keepGoing.getAsBoolean()) {
                throw new Preempted("after the encoder");
            }
            return decoder.project(backend, out, positions);
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    @Override
    public DecoderState newDecoder(int maxBatch) {
        return new KvDecoderState(backend, decoder, maxBatch);
    }

    /**
     * Frees the encoder's scratch buffers (a turbo-sized model's: ~85 MB), for an engine about to idle;
     * the next encode allocates them again (a few ms against a window's encode).
     */
    public void releaseScratch() {
        encoder.releaseScratch();
    }

    @Override
    public void close() {
        encoder.releaseScratch();
        backend.close();
        source.close();
    }
}
