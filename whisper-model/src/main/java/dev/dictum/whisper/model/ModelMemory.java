package dev.dictum.whisper.model;

import dev.dictum.gpu.HostTensor;
import dev.dictum.gpu.LayerTurns;
import dev.dictum.gpu.backend.GpuBackend;
import dev.dictum.whisper.format.WeightSource;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.format.WhisperTensorLayout;

/**
 * What a model of given dimensions holds in a GPU's memory at most, in bytes by the ledger's
 * categories (issue 22): the one estimate behind the GPU's refusal before a load
 * ({@code Backend#checkFits}) and the app's choice of backend. Each figure adds up what the model
 * allocates in that category at its widest decode: up to {@link #MAX_SEQUENCES} sequences (beams, or
 * best-of samples) in one decoder state (reordered by index: no spare, issue 22 item 4) with its row
 * table, beside the greedy state that the model
 * keeps for its captured step. The device's context (527 MiB on an H200) is not the model's: it is in
 * use before the load, so the free figure the estimate is held against has it taken out already.
 *
 * @param weights        every weight as f16, or as the GPU holds it ({@link #onGpu(WeightSource)}: a q8_0
 *                       file's matrices as q8_0 blocks, issue 22)
 * @param selfKv         the decoder states' self-attention caches, f16
 * @param crossKv        one window's cross keys (rows padded) and values per decoder layer, f16
 * @param encoderScratch what only the encoder holds: the window's output, the GEMM's f16 hi/lo planes of its
 *                       widest input and the f32 stage of the f16 values (the backend's, kept)
 * @param decoderScratch what only the decoder states hold, per state: its step values and beam row table
 * @param sharedScratch  the region the encoder's activations (and the cross keys' projection) and the
 *                       decoders' per-feed activations (step, beam step, a prompt's rows, logits, a draft's
 *                       logits) take in turn ({@link ScratchRegion}): held once, the decoders' layout with
 *                       as much of the encoder's over it as fits, and a tail for the rest of the encoder's
 * @param weightScratch  the f16 buffer a q8_0 matrix is dequantised into before a GEMM: its largest such
 *                       matrix (0 for a file without q8_0 matrices)
 * @param encoderTurns   the encoder blocks whose matrices take turns on the device, and what each holds
 */
public record ModelMemory(long weights, long selfKv, long crossKv, long encoderScratch, long decoderScratch,
        long sharedScratch, long weightScratch, EncoderTurns encoderTurns) {

    /**
     * What the encoder's blocks could give back by taking turns ({@link LayerTurns}, issue 22): the bytes of
     * one block's matrices as the GPU holds them, the blocks there are, and how many take turns in this
     * estimate (0: all resident). {@code weights} is every weight resident; {@link #total} counts the turns.
     */
    public record EncoderTurns(long blockBytes, int blocks, int inTurns) {
        /** Device bytes the turns save: the blocks in turns less the slots they share. */
        long saved() {
            return inTurns == 0 ? 0 : (long) (inTurns - LayerTurns.DEVICE_SLOTS) * blockBytes;
        }
    }
    /** The widest decode: Whisper's beam size and best-of are both 5. */
    static final int MAX_SEQUENCES = 5;
    /** Decoder states held at once: the widest decode's and the kept greedy one. */
    private static final int STATES = 2;

    /** The estimate for a model of {@code d} on a GPU. */
    public static ModelMemory onGpu(WhisperDims d) {
        long a = d.nAudioState();
        long t = d.nTextState();
        long frames = d.nAudioCtx();
        long oneSequence = 2L * 2 * d.nTextLayer() * d.nTextCtx() * t; // keys and values, f16
        long selfKv = oneSequence * (MAX_SEQUENCES + 1); // the widest state and the greedy state
        long crossKv = 2L * d.nTextLayer() * (t * TextDecoder.keysStride(d.nAudioCtx()) + frames * t);
        long encoder = 4L * frames * a // WindowBuffers' output
                + 4L * frames * 4 * a // the hi/lo planes (2 x f16) of the MLP's input, the widest
                + 4L * frames * t; // the f32 stage of each layer's values before they are rounded to f16
        // the step's values, the beam step's, BeamRows' table (one row index per sequence and position)
        long perState = 4L * (3 + 3 + 3 * MAX_SEQUENCES + MAX_SEQUENCES * d.nTextCtx());
        long shared = 4 * ScratchRegion.floatsHeld(WhisperModel.scratchLayouts(d), ScratchRegion.Phase.DECODER);
        long block = 2 * 12L * a * a; // the six matrices, f16
        return new ModelMemory(2 * weightElements(d), selfKv, crossKv, encoder, STATES * perState, shared, 0,
                new EncoderTurns(block, d.nAudioLayer(), 0));
    }

    /**
     * The estimate for the model of {@code source} on a GPU: {@link #onGpu(WhisperDims)} with its weights as
     * the GPU holds them ({@link GpuBackend#weightBytes}: a q8_0 file's matrices as q8_0, issue 22) and the
     * weight scratch its largest such matrix needs. Reads the tensors' headers only.
     */
    public static ModelMemory onGpu(WeightSource source) {
        WhisperDims d = source.dims();
        long weights = 0;
        long scratch = 0;
        for (var e : WhisperTensorLayout.shapes(d).entrySet()) {
            HostTensor t = source.tensor(e.getKey(), e.getValue());
            weights += GpuBackend.weightBytes(t);
            scratch = Math.max(scratch, GpuBackend.weightScratchBytes(t));
        }
        long block = 0;
        for (HostTensor t : BlockWeights.encoderMatrices(source, "encoder.blocks.0", d.nAudioState())) {
            block += GpuBackend.weightBytes(t);
        }
        ModelMemory m = onGpu(d);
        return new ModelMemory(weights, m.selfKv, m.crossKv, m.encoderScratch, m.decoderScratch, m.sharedScratch,
                scratch, new EncoderTurns(block, d.nAudioLayer(), 0));
    }

    /** This estimate with the last {@code inTurns} encoder blocks' matrices taking turns (0: none). */
    public ModelMemory withEncoderInTurns(int inTurns) {
        if (inTurns != 0 && (inTurns <= LayerTurns.DEVICE_SLOTS || inTurns > encoderTurns.blocks())) {
            throw new IllegalArgumentException("encoder blocks in turns must be 0 or " + (LayerTurns.DEVICE_SLOTS + 1)
                    + ".." + encoderTurns.blocks() + ", got " + inTurns);
        }
        return new ModelMemory(weights, selfKv, crossKv, encoderScratch, decoderScratch, sharedScratch, weightScratch,
                new EncoderTurns(encoderTurns.blockBytes(), encoderTurns.blocks(), inTurns));
    }

    /**
     * How many encoder blocks must take turns for the model to fit {@code available} bytes: 0 when it fits
     * whole, the fewest that make it fit otherwise, and every block when even that does not (the refusal then
     * names the least the model needs: {@link #least}).
     */
    public int encoderInTurnsFor(long available) {
        if (total() <= available || encoderTurns.blocks() <= LayerTurns.DEVICE_SLOTS) {
            return 0;
        }
        for (int k = LayerTurns.DEVICE_SLOTS + 1; k < encoderTurns.blocks(); k++) {
            if (withEncoderInTurns(k).total() <= available) {
                return k;
            }
        }
        return encoderTurns.blocks();
    }

    /** The least this model can run in on a GPU: every encoder block taking turns where that saves anything. */
    public ModelMemory least() {
        return encoderTurns.blocks() > LayerTurns.DEVICE_SLOTS ? withEncoderInTurns(encoderTurns.blocks()) : this;
    }

    /** Weight values of a Whisper model of these dimensions (biases and norms included). */
    static long weightElements(WhisperDims d) {
        long a = d.nAudioState();
        long t = d.nTextState();
        long encoder = a * d.nMels() * 3 + a * a * 3 + 2 * a + (long) d.nAudioCtx() * a
                + d.nAudioLayer() * (12 * a * a + 12 * a) + 2 * a; // vectors: attention biases 3a, two norms 4a, MLP biases 5a (was 13a)
        long decoder = (long) d.nVocab() * t + (long) d.nTextCtx() * t
                + d.nTextLayer() * (16 * t * t + 17 * t) + 2 * t;
        return encoder + decoder;
    }

    /** Everything together: what the device must have free (before the margin of {@code MemoryFit}). */
    public long total() {
        return weights - encoderTurns.saved() + selfKv + crossKv + encoderScratch + decoderScratch + sharedScratch
                + weightScratch;
    }
}
