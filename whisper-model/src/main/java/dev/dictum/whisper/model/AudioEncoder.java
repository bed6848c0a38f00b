package dev.dictum.whisper.model;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Backend.Projection;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.Epilogue;
import dev.dictum.gpu.HostTensor;
import dev.dictum.gpu.LayerTurns;
import dev.dictum.gpu.Weight;
import dev.dictum.whisper.format.WeightSource;
import dev.dictum.whisper.format.WhisperDims;
import java.util.function.BooleanSupplier;

/**
 * Whisper's audio encoder over the backend ops: two conv+GELU layers (the second halves time),
 * fixed positions, pre-LN transformer blocks, a final LayerNorm. It also projects the output into
 * every decoder layer's cross-attention keys and values once per window, so decoding steps only
 * read them.
 */
final class AudioEncoder {
    private final Backend be;
    private final WhisperDims d;
    private final Weight conv1;
    private final Weight conv1Bias;
    private final Weight conv2;
    private final Weight conv2Bias;
    private final Weight positions;
    private final BlockWeights[] blocks;
    /** The blocks' matrices: resident, or the last layers taking turns on a GPU short of memory (issue 22). */
    private final LayerTurns matrices;
    private final LayerNormWeights lnPost;
    /** The encoder's buffers in the model's {@link ScratchRegion}, in this order ({@link #scratchLayout}). */
    private static final int MEL = 0;
    private static final int C1 = 1;
    private static final int H = 2;
    private static final int Q = 3;
    private static final int K = 4;
    private static final int V = 5;
    private static final int A = 6;
    private static final int MLP = 7;
    /** The window's cross keys before their transposition ({@link TextDecoder#project}): the last of the layout. */
    static final int CROSS_KEYS = 8;

    /**
     * Uploads the encoder of {@code src}; the matrices of its last {@code layersInTurns} blocks take turns
     * on the device ({@link Backend#uploadInTurns}; 0: all resident).
     */
    AudioEncoder(WeightSource src, Backend be, int layersInTurns) {
        this.be = be;
        this.d = src.dims();
        int n = d.nAudioState();
        conv1 = be.upload(src.tensor("encoder.conv1.weight", n, d.nMels(), 3));
        conv1Bias = be.upload(src.tensor("encoder.conv1.bias", n));
        conv2 = be.upload(src.tensor("encoder.conv2.weight", n, n, 3));
        conv2Bias = be.upload(src.tensor("encoder.conv2.bias", n));
        positions = be.upload(src.tensor("encoder.positional_embedding", d.nAudioCtx(), n));
        blocks = new BlockWeights[d.nAudioLayer()];
        HostTensor[][] m = new HostTensor[blocks.length][];
        for (int i = 0; i < blocks.length; i++) {
            m[i] = BlockWeights.encoderMatrices(src, "encoder.blocks." + i, n);
        }
        matrices = be.uploadInTurns(m, layersInTurns);
        for (int i = 0; i < blocks.length; i++) {
            blocks[i] = BlockWeights.encoder(src, be, "encoder.blocks." + i, n, matrices.weights(i));
        }
        lnPost = LayerNormWeights.load(src, be, "encoder.ln_post", n);
    }

    /**
     * Runs the encoder on the first {@code t} positions of one log-mel window (its first {@code 2t}
     * frames and the first {@code t} positional-embedding rows; {@code t = n_audio_ctx} is the whole
     * window); {@code out} receives {@code [t, n_audio_state]}. The convolutions see zeros past
     * frame {@code 2t}, as whisper.cpp's audio_ctx does.
     * <p>
     * {@code keepGoing} is asked before the convolutions and after every layer; once it says no,
     * {@link Preempted} is thrown before the next layer starts. Nothing is left behind: the scratch
     * is rewritten from the input by every encode (and may be a decoder's between two encodes), and
     * the caller frees {@code out}. A GPU backend
     * queues ops asynchronously and the host queues a whole encoder in about a millisecond, so a check
     * alone would bound what is queued, not what runs: a pass stopped at the release would still hold
     * the GPU for the rest of its encoder (~30 ms on large-v3) before the final pass's work starts.
     * A preemptible encode ({@code keepGoing} other than {@link #ALWAYS}) therefore waits for the
     * device every {@value #SYNC_EVERY} layers, keeping at most that many layers queued (the device
     * idles for one layer's queueing, ~35 µs, each time).
     */
    /** An encode nobody preempts: never waits for the device between layers. */
    static final BooleanSupplier ALWAYS = () -> true;
    /** Layers a preemptible encode may have queued ahead of the device. */
    static final int SYNC_EVERY = 4;

    /**
     * The sizes in floats of the encoder's activations for one window of {@code d} (a full one: shorter
     * windows use their first rows), in the order of the indices above; the last, the cross keys'
     * projection, is {@link TextDecoder#project}'s.
     */
    static long[] scratchLayout(WhisperDims d) {
        long n = d.nAudioState();
        long rows = d.nAudioCtx();
        long frames = d.melFrames();
        return new long[] {(long) d.nMels() * frames, frames * n, rows * n, rows * n, rows * n, rows * n, rows * n,
            rows * 4 * n, rows * d.nTextState()};
    }

    /** Encodes as above in the buffers of {@code scratch}, an encoder lease of the model's region. */
    synchronized void encode(float[] logMel, int t, Buffer out, BooleanSupplier keepGoing, ScratchRegion.Lease scratch) {
        int fullFrames = d.melFrames();
        if (logMel.length != d.nMels() * fullFrames) {
            throw new IllegalArgumentException("log-mel has " + logMel.length + " values, the model takes "
                    + d.nMels() + " x " + fullFrames);
        }
        int n = d.nAudioState();
        int frames = fullFrames / d.nAudioCtx() * t;
        stopIfUnwanted(keepGoing, "before the encoder");
        matrices.begin(); // the first layers that take turns start coming in behind the convolutions
        Buffer mel = scratch.buffer(MEL);
        Buffer c1 = scratch.buffer(C1);
        Buffer h = scratch.buffer(H);
        Buffer q = scratch.buffer(Q);
        Buffer k = scratch.buffer(K);
        Buffer v = scratch.buffer(V);
        Buffer a = scratch.buffer(A);
        Buffer mlp = scratch.buffer(MLP);
        if (frames == fullFrames) {
            be.upload(logMel, 0, mel, 0, logMel.length);
        } else {
            // mel bin outer: each bin's first frames, packed on the host into rows of the shorter
            // length, so a device backend gets one transfer
            float[] packed = new float[d.nMels() * frames];
            for (int bin = 0; bin < d.nMels(); bin++) {
                System.arraycopy(logMel, bin * fullFrames, packed, bin * frames, frames);
            }
            be.upload(packed, 0, mel, 0, packed.length);
        }
        be.conv1dGelu(mel, true, d.nMels(), frames, conv1, conv1Bias, 1, c1);
        be.conv1dGelu(c1, false, n, frames, conv2, conv2Bias, 2, out);
        be.addRows(out, t, positions, 0);
        int heads = d.nAudioHead();
        int[] keys = {t};
        for (int layer = 0; layer < blocks.length; layer++) {
            if (keepGoing != ALWAYS && layer > 0 && layer % SYNC_EVERY == 0) {
                be.synchronize();
            }
            stopIfUnwanted(keepGoing, layer == 0 ? "after the convolutions" : "after encoder layer " + layer);
            BlockWeights b = blocks[layer];
            matrices.enter(layer);
            be.layerNorm(out, t, n, b.attnLn().gain(), b.attnLn().bias(), h);
            AttentionWeights w = b.attn();
            be.project(h, t, new Projection(w.query(), w.queryBias(), q), new Projection(w.key(), null, k),
                    new Projection(w.value(), w.valueBias(), v));
            be.attention(q, n, 1, t, k, v, 0, 0, n, keys, heads, n / heads, false, a);
            be.linear(a, 0, t, w.out(), w.outBias(), out, 0, Epilogue.ADD);
            be.layerNorm(out, t, n, b.mlpLn().gain(), b.mlpLn().bias(), h);
            be.linear(h, 0, t, b.mlpUp(), b.mlpUpBias(), mlp, 0, Epilogue.GELU);
            be.linear(mlp, 0, t, b.mlpDown(), b.mlpDownBias(), out, 0, Epilogue.ADD);
        }
        be.layerNorm(out, t, n, lnPost.gain(), lnPost.bias(), out);
    }

    private static void stopIfUnwanted(BooleanSupplier keepGoing, String where) {
        if (!keepGoing.getAsBoolean()) {
            throw new Preempted(where);
        }
    }
}
