package dev.dictum.whisper.model;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Backend.Projection;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.MemoryCategory;
import dev.dictum.gpu.Epilogue;
import dev.dictum.gpu.StepGraph;
import java.util.Arrays;
import java.util.logging.Logger;

/**
 * Incremental decoding with a key/value cache per layer for a batch of sequences. Every buffer is
 * allocated up front for {@code maxBatch} sequences of n_text_ctx tokens, so the per-token loop
 * allocates nothing; reordering (beam search) copies cache rows into a second set and swaps.
 *
 * <p>One token of one sequence (greedy decoding) runs as a "step" whose changing values (token id,
 * position, key count) are read from a small step buffer on the backend; a backend with graphs
 * (CUDA) captures that step once and replays it with one launch per token. The graph names the
 * window's buffers, this state's caches and its one-row step scratch (apart from the batch scratch,
 * which grows with the prompt), so it stays valid across {@link #reset} for every window that holds
 * the same {@link WindowBuffers}: the model's pooled window set and pooled state make a dictation
 * after the first replay the graph from its first token. The first capture is checked: the eager
 * step and the replay must give the same logits bit for bit, else the backend is told to stop
 * capturing and every step runs eagerly.
 */
final class KvDecoderState implements DecoderState {
    private static final Logger LOG = Logger.getLogger(KvDecoderState.class.getName());
    private final Backend be;
    private final TextDecoder dec;
    private final int n;
    private final int ctx;
    private final int maxBatch;
    private final int heads;
    private Buffer[] keys;
    private Buffer[] values;
    private Buffer[] spareKeys;
    private Buffer[] spareValues;
    private EncodedWindow audio;
    private int batch;
    private int length;
    /** Activations of a batch of rows (grows to the largest feed seen). */
    private Scratch rows;
    /** Activations of the one-token step: never reallocated, since the captured step names them. */
    private final Scratch one;
    private final Buffer last;
    private final Buffer logits;
    private final int[] keyCounts;
    private int[] tokenScratch = new int[0];
    private int[] positionScratch = new int[0];
    /** Logits of every row of a {@link #feedAll} (grows to the largest seen) and their host copy. */
    private Buffer allLogits;
    private int allLogitsRows;
    private float[] hostLogits = new float[0];
    /** {token id, position, key count} of the one-token step, as int bit patterns. */
    private final Buffer step;
    private final int[] stepValues = new int[3];
    /** The captured step, valid while the window's buffers and this state's stay the same. */
    private StepGraph graph;
    /** The window buffers {@link #graph} names. */
    private WindowBuffers graphWindow;
    /** Whether the first capture passed its replay-compare check. */
    private boolean graphChecked;
    /** The backend has no graphs or refused them: every step runs eagerly. */
    private boolean graphsOff;

    KvDecoderState(Backend be, TextDecoder dec, int maxBatch) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("batch must be at least 1");
        }
        this.be = be;
        this.dec = dec;
        this.n = dec.dims.nTextState();
        this.ctx = dec.dims.nTextCtx();
        this.heads = dec.dims.nTextHead();
        this.maxBatch = maxBatch;
        int layers = dec.blocks.length;
        keys = new Buffer[layers];
        values = new Buffer[layers];
        spareKeys = new Buffer[layers];
        spareValues = new Buffer[layers];
        long cache = (long) maxBatch * ctx * n;
        for (int l = 0; l < layers; l++) {
            keys[l] = be.allocate(cache, MemoryCategory.SELF_KV);
            values[l] = be.allocate(cache, MemoryCategory.SELF_KV);
        }
        last = be.allocate((long) maxBatch * n, MemoryCategory.DECODER_SCRATCH);
        logits = be.allocate((long) maxBatch * dec.dims.nVocab(), MemoryCategory.DECODER_SCRATCH);
        keyCounts = new int[maxBatch];
        step = be.allocate(3, MemoryCategory.DECODER_SCRATCH);
        one = new Scratch(be, 1, n);
        ensureScratch(Math.max(maxBatch, 4));
    }

    @Override
    public void reset(EncodedAudio encoded, int batch) {
        if (!(encoded instanceof EncodedWindow w)) {
            throw new IllegalArgumentException("audio was encoded by another model");
        }
        checkBatch(batch);
        if (w.buffers() != graphWindow) {
            dropGraph();
        }
        this.audio = w;
        this.batch = batch;
        this.length = 0;
    }

    @Override
    public void feed(int[][] tokens, float[][] out) {
        WindowBuffers window = checkFeed(tokens.length, tokens[0].length);
        int len = tokens[0].length;
        if (batch == 1 && len == 1) {
            feedStep(tokens[0][0], out[0], window);
            return;
        }
        Scratch s = forward(tokens, len, window);
        // Only the last position of each sequence is needed: LayerNorm and project those rows.
        for (int b = 0; b < batch; b++) {
            be.copy(s.x, (long) (b * len + len - 1) * n, last, (long) b * n, n);
        }
        be.layerNorm(last, batch, n, dec.ln.gain(), dec.ln.bias(), last);
        be.linear(last, 0, batch, dec.tokens, null, logits, 0, Epilogue.NONE);
        int vocab = dec.dims.nVocab();
        for (int b = 0; b < batch; b++) {
            be.download(logits, (long) b * vocab, out[b], 0, vocab);
        }
        length += len;
    }

    @Override
    public void feedAll(int[] tokens, int from, float[][] out) {
        if (batch != 1) {
            throw new IllegalStateException("logits at every position are for a batch of one, not " + batch);
        }
        int len = tokens.length;
        WindowBuffers window = checkFeed(1, len);
        int count = len - from;
        if (from < 0 || count < 1 || out.length < count) {
            throw new IllegalArgumentException("logits from position " + from + " of " + len + " into "
                    + out.length + " rows");
        }
        Scratch s = forward(new int[][] {tokens}, len, window);
        // Every row from `from` on: LayerNorm them (in the free h rows) and project them in one product.
        int vocab = dec.dims.nVocab();
        be.copy(s.x, (long) from * n, s.h, 0, (long) count * n);
        be.layerNorm(s.h, count, n, dec.ln.gain(), dec.ln.bias(), s.h);
        if (allLogits == null || allLogitsRows < count) {
            if (allLogits != null) {
                allLogits.close();
            }
            // room for a typical draft at once: growing later frees the old buffer (a device sync)
            allLogitsRows = Math.max(count, 32);
            allLogits = be.allocate((long) allLogitsRows * vocab, MemoryCategory.DECODER_SCRATCH);
        }
        be.linear(s.h, 0, count, dec.tokens, null, allLogits, 0, Epilogue.NONE);
        if (hostLogits.length < count * vocab) {
            hostLogits = new float[count * vocab];
        }
        be.download(allLogits, 0, hostLogits, 0, count * vocab); // one transfer, not one per row
        for (int i = 0; i < count; i++) {
            System.arraycopy(hostLogits, i * vocab, out[i], 0, vocab);
        }
        length += len;
    }

    /**
     * Forgets the positions from {@code length} on. The caches keep their rows (the next feed
     * overwrites them; attention reads only the key count it is given), the one-token step reads its
     * position and key count from the step buffer at every replay, so a captured step stays valid.
     */
    @Override
    public void truncate(int length) {
        if (length < 0 || length > this.length) {
            throw new IllegalArgumentException("cannot truncate " + this.length + " fed tokens to " + length);
        }
        this.length = length;
    }

    /** Checks a feed of {@code len} tokens to each of {@code rows} sequences; returns the window's buffers. */
    private WindowBuffers checkFeed(int rows, int len) {
        if (audio == null) {
            throw new IllegalStateException("reset() before feed()");
        }
        if (rows != batch) {
            throw new IllegalArgumentException(rows + " token rows for a batch of " + batch);
        }
        WindowBuffers window = audio.buffers(); // throws once the window is closed
        if (len < 1 || length + len > ctx) {
            throw new IllegalArgumentException("feeding " + len + " tokens after " + length + " exceeds the text context "
                    + ctx);
        }
        return window;
    }

    /**
     * Runs {@code len} new tokens of every sequence through every layer (their keys and values go
     * into the caches at positions length..length+len-1); the final activations are in the returned
     * scratch's {@code x}, row {@code b * len + i}. Does not advance {@link #length}.
     */
    private Scratch forward(int[][] tokens, int len, WindowBuffers window) {
        int rows = batch * len;
        ensureScratch(rows);
        Scratch s = this.rows;
        if (tokenScratch.length < rows) {
            tokenScratch = new int[rows];
            positionScratch = new int[rows];
        }
        int vocab = dec.dims.nVocab();
        for (int b = 0; b < batch; b++) {
            if (tokens[b].length != len) {
                throw new IllegalArgumentException("every sequence must be fed the same number of tokens");
            }
            for (int i = 0; i < len; i++) {
                if (tokens[b][i] < 0 || tokens[b][i] >= vocab) {
                    throw new IllegalArgumentException("token id " + tokens[b][i] + " outside the vocabulary");
                }
                tokenScratch[b * len + i] = tokens[b][i];
                positionScratch[b * len + i] = length + i;
            }
        }
        be.embed(tokenScratch, positionScratch, rows, dec.tokens, dec.positions, s.x);
        for (int b = 0; b < batch; b++) {
            keyCounts[b] = length + len;
        }
        for (int l = 0; l < dec.blocks.length; l++) {
            layer(l, rows, len, s, window);
        }
        return s;
    }

    /** One token of one sequence: replays the captured step where the backend has graphs. */
    private void feedStep(int token, float[] out, WindowBuffers window) {
        if (token < 0 || token >= dec.dims.nVocab()) {
            throw new IllegalArgumentException("token id " + token + " outside the vocabulary");
        }
        stepValues[0] = token;
        stepValues[1] = length;
        stepValues[2] = length + 1;
        be.uploadInts(stepValues, step, 3);
        if (graph != null && graphWindow == window) {
            graph.replay();
        } else {
            dropGraph();
            runStep(window);
            if (!graphsOff) {
                captureStep(window);
            }
        }
        be.download(logits, 0, out, 0, dec.dims.nVocab());
        length++;
    }

    /**
     * Captures the step just run eagerly; the first capture of this state is checked by replaying it
     * over the same step (which rewrites the same cache rows) and comparing the logits bit for bit.
     */
    private void captureStep(WindowBuffers window) {
        StepGraph g;
        try {
            g = be.capture(() -> runStep(window));
        } catch (RuntimeException e) {
            refuse("capturing the decoder step failed: " + e.getMessage());
            return;
        }
        if (g == null) {
            graphsOff = true;
            return;
        }
        if (!graphChecked) {
            int vocab = dec.dims.nVocab();
            float[] eager = new float[vocab];
            float[] replayed = new float[vocab];
            float[] poison = new float[vocab];
            Arrays.fill(poison, Float.NaN);
            try {
                be.download(logits, 0, eager, 0, vocab);
                be.upload(poison, 0, logits, 0, vocab);
                g.replay();
                be.download(logits, 0, replayed, 0, vocab);
            } catch (RuntimeException e) {
                g.close();
                refuse("replaying the decoder step failed: " + e.getMessage());
                be.upload(eager, 0, logits, 0, vocab);
                return;
            }
            if (!Arrays.equals(eager, replayed)) {
                g.close();
                refuse("the replayed decoder step's logits differ from the eager step's");
                be.upload(eager, 0, logits, 0, vocab);
                return;
            }
            graphChecked = true;
        }
        graph = g;
        graphWindow = window;
    }

    private void refuse(String why) {
        LOG.warning(() -> "decoder steps run eagerly on " + be.name() + ": " + why);
        be.refuseGraphs(why);
        graphsOff = true;
    }

    /**
     * The step's ops: everything reads the token, position and key count from {@link #step}; the
     * buffers are the step scratch, the caches and {@code window}'s, all of which a graph keeps.
     */
    private void runStep(WindowBuffers window) {
        Scratch s = one;
        be.embedStep(step, dec.tokens, dec.positions, s.x);
        for (int l = 0; l < dec.blocks.length; l++) {
            BlockWeights blk = dec.blocks[l];
            AttentionWeights sa = blk.attn();
            // Layer norm, Q/K/V and the cache appends: one launch on the GPU (gemv3_1_f16).
            be.projectStep(s.x, blk.attnLn().gain(), blk.attnLn().bias(), s.h,
                    new Projection(sa.query(), sa.queryBias(), s.q), new Projection(sa.key(), null, s.kNew),
                    new Projection(sa.value(), sa.valueBias(), s.vNew), keys[l], values[l], n, step);
            be.attentionStep(s.q, keys[l], values[l], n, step, heads, n / heads, s.att);
            be.linear(s.att, 0, 1, sa.out(), sa.outBias(), s.x, 0, Epilogue.ADD);
            crossAndMlp(l, 1, s, window);
        }
        be.normLinear(s.x, 1, dec.ln.gain(), dec.ln.bias(), last, dec.tokens, null, logits, Epilogue.NONE);
    }

    private void dropGraph() {
        if (graph != null) {
            graph.close();
            graph = null;
        }
        graphWindow = null;
    }

    private void layer(int l, int rows, int len, Scratch s, WindowBuffers window) {
        BlockWeights blk = dec.blocks[l];
        AttentionWeights sa = blk.attn();
        be.layerNorm(s.x, rows, n, blk.attnLn().gain(), blk.attnLn().bias(), s.h);
        be.project(s.h, rows, new Projection(sa.query(), sa.queryBias(), s.q), new Projection(sa.key(), null, s.kNew),
                new Projection(sa.value(), sa.valueBias(), s.vNew));
        for (int b = 0; b < batch; b++) {
            long dst = ((long) b * ctx + length) * n;
            be.copy(s.kNew, (long) b * len * n, keys[l], dst, (long) len * n);
            be.copy(s.vNew, (long) b * len * n, values[l], dst, (long) len * n);
        }
        be.attention(s.q, n, batch, len, keys[l], values[l], 0, (long) ctx * n, n, keyCounts, heads, n / heads, true,
                s.att);
        be.linear(s.att, 0, rows, sa.out(), sa.outBias(), s.x, 0, Epilogue.ADD);

        crossAndMlp(l, rows, s, window);
    }

    /** Cross-attention and MLP of layer {@code l}, the same for the step and a batch of rows. */
    private void crossAndMlp(int l, int rows, Scratch s, WindowBuffers w) {
        BlockWeights blk = dec.blocks[l];
        AttentionWeights ca = blk.cross();
        // normLinear: the layer norm in the GEMV's prologue for one row (the step), else as two ops.
        be.normLinear(s.x, rows, blk.crossLn().gain(), blk.crossLn().bias(), s.h, ca.query(), ca.queryBias(), s.q,
                Epilogue.NONE);
        be.crossAttention(s.q, rows, w.crossKeysT[l], w.keysStride, w.crossValues[l], w.frames, heads, n / heads,
                s.att);
        be.linear(s.att, 0, rows, ca.out(), ca.outBias(), s.x, 0, Epilogue.ADD);

        be.normLinear(s.x, rows, blk.mlpLn().gain(), blk.mlpLn().bias(), s.h, blk.mlpUp(), blk.mlpUpBias(), s.mlp,
                Epilogue.GELU);
        be.linear(s.mlp, 0, rows, blk.mlpDown(), blk.mlpDownBias(), s.x, 0, Epilogue.ADD);
    }

    @Override
    public void reorder(int[] sourceOf) {
        checkBatch(sourceOf.length);
        dropGraph();
        for (int l = 0; l < keys.length; l++) {
            if (spareKeys[l] == null) {
                long cache = (long) maxBatch * ctx * n;
                spareKeys[l] = be.allocate(cache, MemoryCategory.SELF_KV);
                spareValues[l] = be.allocate(cache, MemoryCategory.SELF_KV);
            }
            for (int i = 0; i < sourceOf.length; i++) {
                if (sourceOf[i] < 0 || sourceOf[i] >= batch) {
                    throw new IllegalArgumentException("no sequence " + sourceOf[i] + " in a batch of " + batch);
                }
                long count = (long) length * n;
                be.copy(keys[l], (long) sourceOf[i] * ctx * n, spareKeys[l], (long) i * ctx * n, count);
                be.copy(values[l], (long) sourceOf[i] * ctx * n, spareValues[l], (long) i * ctx * n, count);
            }
        }
        Buffer[] t = keys;
        keys = spareKeys;
        spareKeys = t;
        t = values;
        values = spareValues;
        spareValues = t;
        batch = sourceOf.length;
    }

    @Override
    public int batch() {
        return batch;
    }

    @Override
    public int length() {
        return length;
    }

    private void checkBatch(int b) {
        if (b < 1 || b > maxBatch) {
            throw new IllegalArgumentException("batch " + b + " outside 1.." + maxBatch);
        }
    }

    private void ensureScratch(int count) {
        if (rows != null && count <= rows.rows) {
            return;
        }
        if (rows != null) {
            rows.close();
            rows = null;
        }
        rows = new Scratch(be, count, n);
    }

    /** The activations of {@code rows} decoder rows. */
    private static final class Scratch {
        final int rows;
        final Buffer x;
        final Buffer h;
        final Buffer q;
        final Buffer kNew;
        final Buffer vNew;
        final Buffer att;
        final Buffer mlp;

        Scratch(Backend be, int rows, int n) {
            this.rows = rows;
            long r = rows;
            x = be.allocate(r * n, MemoryCategory.DECODER_SCRATCH);
            h = be.allocate(r * n, MemoryCategory.DECODER_SCRATCH);
            q = be.allocate(r * n, MemoryCategory.DECODER_SCRATCH);
            kNew = be.allocate(r * n, MemoryCategory.DECODER_SCRATCH);
            vNew = be.allocate(r * n, MemoryCategory.DECODER_SCRATCH);
            att = be.allocate(r * n, MemoryCategory.DECODER_SCRATCH);
            mlp = be.allocate(r * 4 * n, MemoryCategory.DECODER_SCRATCH);
        }

        void close() {
            KvDecoderState.close(x, h, q, kNew, vNew, att, mlp);
        }
    }

    private static void close(Buffer... buffers) {
        for (Buffer b : buffers) {
            if (b != null) {
                b.close();
            }
        }
    }

    @Override
    public void close() {
        dropGraph();
        if (rows != null) {
            rows.close();
        }
        one.close();
        close(last, logits, step, allLogits);
        close(keys);
        close(values);
        close(spareKeys);
        close(spareValues);
    }
}
