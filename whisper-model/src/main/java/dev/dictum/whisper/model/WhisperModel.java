package dev.dictum.whisper.model;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.MemoryCategory;
import dev.dictum.whisper.format.GenerationConfig;
import dev.dictum.whisper.format.WeightSource;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.tokenizer.Vocabulary;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * A Whisper model loaded onto a backend: the encoder and decoder graphs written once against the
 * backend ops. Owns the weight source (closing the model unmaps the file) and the backend's copies.
 * Thread-safe for concurrent decoders; encoding runs one window at a time. The encoder's activations
 * and the decoders' share one {@link ScratchRegion} (issue 22 item 1): an encode or a decoder feed holds
 * it, so encodes and feeds of several threads run one at a time.
 */
public final class WhisperModel implements WhisperInference {
    private final WeightSource source;
    private final Backend backend;
    private final AudioEncoder encoder;
    private final TextDecoder decoder;
    /** The encoder's and every decoder state's activations (up to MAX_SEQUENCES sequences), held once. */
    private final ScratchRegion scratch;
    /** Window buffers and greedy decoder states kept from one transcription to the next (graphs). */
    private final WindowPool windows;
    private final DecoderPool decoders;
    /** Whether the model keeps a window's buffers and a greedy state with its captured step. */
    private final BooleanSupplier keepStepBuffers;

    /** Encoder blocks whose matrices take turns on the device (0: every weight resident). */
    private final int encoderInTurns;

    private WhisperModel(WeightSource source, Backend backend, BooleanSupplier keepStepBuffers, int encoderInTurns) {
        this.source = source;
        this.backend = backend;
        this.keepStepBuffers = keepStepBuffers;
        this.encoderInTurns = encoderInTurns;
        this.encoder = new AudioEncoder(source, backend, encoderInTurns);
        this.decoder = new TextDecoder(source, backend);
        backend.weightsUploaded(); // the GPU's raw upload scratch (large-v3's f32 token table: 265 MB) goes
        WhisperDims d = source.dims();
        this.scratch = new ScratchRegion(backend, MemoryCategory.SHARED_SCRATCH, scratchLayouts(d),
                ScratchRegion.Phase.DECODER);
        this.windows = new WindowPool(backend, d.nAudioCtx(), d.nAudioState(), d.nTextLayer(), keepStepBuffers);
        this.decoders = new DecoderPool(backend, decoder, scratch, keepStepBuffers);
    }

    /** The shared region's phases: the encoder's buffers and a decoder's for up to MAX_SEQUENCES sequences. */
    static Map<ScratchRegion.Phase, long[]> scratchLayouts(WhisperDims d) {
        return Map.of(ScratchRegion.Phase.ENCODER, AudioEncoder.scratchLayout(d), ScratchRegion.Phase.DECODER,
                DecoderActivations.layout(d, ModelMemory.MAX_SEQUENCES));
    }

    /**
     * Loads every weight of {@code source} onto {@code backend}; on failure closes the source. Where the whole
     * model does not fit the device's free memory ({@link Backend#memoryAvailable}), the matrices of as few of
     * the encoder's last blocks as needed take turns in device slots ({@link Backend#uploadInTurns}, issue 22);
     * where even that does not fit, the backend refuses with the least the model needs. On a
     * backend that captures decoder steps the model keeps one full window's buffers and one greedy
     * decoder state (with its captured step) between transcriptions, so that every dictation after
     * the first replays that step from its first token; both are within {@link ModelMemory}.
     */
    public static WhisperModel load(WeightSource source, Backend backend) {
        return load(source, backend, backend::capturesSteps);
    }

    /** {@link #load(WeightSource, Backend)} that keeps the step's buffers while {@code keepStepBuffers} says so (tests). */
    static WhisperModel load(WeightSource source, Backend backend, BooleanSupplier keepStepBuffers) {
        return load(source, backend, keepStepBuffers, -1);
    }

    /** {@link #load(WeightSource, Backend, BooleanSupplier)} with {@code encoderInTurns} blocks in turns (-1: as needed; tests). */
    static WhisperModel load(WeightSource source, Backend backend, BooleanSupplier keepStepBuffers, int encoderInTurns) {
        try {
            ModelMemory need = ModelMemory.onGpu(source);
            int inTurns = encoderInTurns >= 0 ? encoderInTurns : need.encoderInTurnsFor(backend.memoryAvailable());
            backend.checkFits(source.description(), need.withEncoderInTurns(inTurns).total());
            return new WhisperModel(source, backend, keepStepBuffers, inTurns);
        } catch (RuntimeException e) {
            source.close();
            throw e;
        }
    }

    public Backend backend() {
        return backend;
    }

    /**
     * How many of the encoder's blocks take turns on the device (their matrices in host memory, copied in
     * before each runs), and of how many; 0 where the model is resident whole.
     */
    public int encoderBlocksInTurns() {
        return encoderInTurns;
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
        return encode(logMel, positions, AudioEncoder.ALWAYS);
    }

    @Override
    public EncodedAudio encode(float[] logMel, int positions, BooleanSupplier keepGoing) {
        WhisperDims d = dims();
        if (positions < 1 || positions > d.nAudioCtx()) {
            throw new IllegalArgumentException("encoder positions must be 1.." + d.nAudioCtx() + ", got " + positions);
        }
        WindowBuffers b = windows.take(positions);
        try (ScratchRegion.Lease s = scratch.acquire(ScratchRegion.Phase.ENCODER)) {
            encoder.encode(logMel, positions, b.output, keepGoing, s);
            if (!keepGoing.getAsBoolean()) {
                throw new Preempted("after the encoder");
            }
            decoder.project(backend, b, s.buffer(AudioEncoder.CROSS_KEYS));
            return new EncodedWindow(backend, windows, b);
        } catch (RuntimeException e) {
            windows.give(b);
            throw e;
        }
    }

    @Override
    public DecoderState newDecoder(int maxBatch) {
        return decoders.lease(maxBatch);
    }

    /** A decoder of its own (never pooled) whose beam reorders move the caches as {@code reorder} says (tests). */
    DecoderState newDecoder(int maxBatch, KvDecoderState.Reorder reorder) {
        return new KvDecoderState(backend, decoder, scratch, maxBatch, reorder);
    }

    /**
     * For an engine about to idle (it waits for an encode or feed in progress): frees the part of the
     * shared scratch region only the encoder uses (a turbo-sized model's: 63 MB of 94); the decoders'
     * part, which the kept greedy state's captured step names, stays until {@link #close}. A model that
     * keeps no step (no graphs: the CPU, HIP) frees the whole region. The next encode or feed allocates
     * what it needs again (a few ms against a window's encode).
     */
    public void releaseScratch() {
        if (keepStepBuffers.getAsBoolean()) {
            scratch.trim();
        } else {
            scratch.release();
        }
    }

    /** The region the encoder and the decoders share (tests). */
    ScratchRegion scratch() {
        return scratch;
    }

    /** Whether {@code audio}'s buffers are the ones kept for the next window (tests). */
    boolean holdsKeptWindow(EncodedAudio audio) {
        return audio instanceof EncodedWindow w && windows.isHome(w.buffers());
    }

    /** Whether a greedy decoder state waits for the next transcription (tests). */
    boolean holdsIdleDecoder() {
        return decoders.holdsIdle();
    }

    @Override
    public void close() {
        decoders.close();
        windows.close();
        scratch.close();
        backend.close();
        source.close();
    }
}
