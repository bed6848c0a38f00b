package dev.dictum.whisper.model;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Backend.Projection;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.MemoryCategory;
import dev.dictum.gpu.Epilogue;
import java.util.logging.Logger;

/**
 * Incremental decoding with a key/value cache per layer for a batch of sequences. Every buffer is
 * allocated up front for {@code maxBatch} sequences of n_text_ctx tokens, so the per-token loop
 * allocates nothing. Beam search reorders the sequences by index ({@link BeamRows}): the cache rows
 * stay where they were written and each sequence reads its history through a row table, so the caches
 * exist once (issue 22 item 4; before, a reorder copied every row into a second full set and swapped).
 * A batch of several sequences lays its rows out position-major, row {@code p * maxBatch + b} for
 * position p of sequence b, so that a decoded token's keys and values of every sequence are one copy;
 * a single sequence keeps its rows together (row {@code p}), as greedy decoding and its captured step
 * always have. {@code DICTUM_BEAM_REORDER=copy} ({@link Reorder#BY_COPY}) keeps the earlier way
 * (sequence-major rows, copied into the second set at every reorder) for A/B runs and for the tests
 * that compare the two. The caches come from {@link Backend#allocateHalf}: the GPU keeps them in f16
 * (half the bytes of the largest category after the weights, and of what a decoded token reads; issue 22),
 * written only by copy, kvAppendStep and projectStep and read only by the attention ops.
 *
 * <p>One token of each of several sequences (beam search, best-of) runs, on a backend that captures
 * steps, as a "beam step" in the same way as the one-sequence step below: its values (tokens,
 * positions, key counts) in a small buffer on the backend, its own activations, attention always through
 * the row tables, captured once per window and number of sequences and checked as the other
 * ({@link CheckedStepGraph}); a refused beam graph leaves the one-sequence step's alone.
 *
 * <p>One token of one sequence (greedy decoding) runs as a "step" whose changing values (token id,
 * position, key count) are read from a small step buffer on the backend; a backend with graphs
 * (CUDA) captures that step once and replays it with one launch per token. The graph names the
 * window's buffers, this state's caches and the one-row step activations in the model's scratch region
 * ({@link DecoderActivations}: shared with the encoder and the other states, issue 22 item 1; every
 * step writes them before it reads them, and their place never moves while the model is open), so it
 * stays valid across {@link #reset} for every window that holds the same {@link WindowBuffers}: the
 * model's pooled window set and pooled state make a dictation after the first replay the graph from
 * its first token. Each feed holds the region ({@link ScratchRegion.Lease}) from its first op to its
 * logits' download. The first capture is checked: the eager step and the replay must give the same
 * logits bit for bit, else the backend is told to stop capturing and every step runs eagerly.
 */
final class KvDecoderState implements DecoderState {
    private static final Logger LOG = Logger.getLogger(KvDecoderState.class.getName());

    /** How beam search's reorders move the caches. */
    enum Reorder {
        /** Row tables rewritten; no cache row moves (the default). */
        BY_INDEX,
        /** Every row copied into a second set of caches (the way before issue 22; A/B runs, tests). */
        BY_COPY;

        /** {@code DICTUM_BEAM_REORDER=copy} gives {@link #BY_COPY}. */
        static Reorder configured() {
            return "copy".equals(System.getenv("DICTUM_BEAM_REORDER")) ? BY_COPY : BY_INDEX;
        }
    }

    private final Backend be;
    private final TextDecoder dec;
    private final int n;
    private final int ctx;
    private final int maxBatch;
    private final int heads;
    private final Reorder reorder;
    /** Cache rows between one sequence's positions and between sequences at one position (set by reset). */
    private int posStride = 1;
    private int beamStride;
    private final BeamRows beamRows;
    private Buffer[] keys;
    private Buffer[] values;
    private Buffer[] spareKeys;
    private Buffer[] spareValues;
    private EncodedWindow audio;
    private int batch;
    private int length;
    /**
     * The activations of a feed (in the model's scratch region, shared with the encoder and the other
     * states: valid while a feed holds its lease). A captured step names those of one region generation.
     */
    private final DecoderActivations act;
    private final int[] keyCounts;
    private int[] tokenScratch = new int[0];
    private int[] positionScratch = new int[0];
    /** The host copy of logits. */
    private float[] hostLogits = new float[0];
    /** {token id, position, key count} of the one-token step, as int bit patterns. */
    private final Buffer step;
    private final int[] stepValues = new int[3];
    /** The captured one-token step, valid while the window's buffers and this state's stay the same. */
    private final CheckedStepGraph greedyGraph;
    /**
     * A beam step (one token for each of several sequences) in a form a backend captures: its values
     * ({@code 0, position, key count}, then the tokens, positions and key counts of the sequences, as
     * int bit patterns), activations and graph; null for a state of one sequence.
     */
    private final Buffer beamStep;
    private final int[] beamStepValues;
    private final CheckedStepGraph beamGraph;

    /** A state whose activations are in {@code scratch} (the model's region) where they fit. */
    KvDecoderState(Backend be, TextDecoder dec, ScratchRegion scratch, int maxBatch) {
        this(be, dec, scratch, maxBatch, Reorder.configured());
    }

    KvDecoderState(Backend be, TextDecoder dec, ScratchRegion scratch, int maxBatch, Reorder reorder) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("batch must be at least 1");
        }
        this.be = be;
        this.dec = dec;
        this.n = dec.dims.nTextState();
        this.ctx = dec.dims.nTextCtx();
        this.heads = dec.dims.nTextHead();
        this.maxBatch = maxBatch;
        this.reorder = reorder;
        this.beamStride = ctx;
        this.beamRows = new BeamRows(be, maxBatch, ctx);
        int layers = dec.blocks.length;
        spareKeys = new Buffer[layers];
        spareValues = new Buffer[layers];
        long cache = (long) maxBatch * ctx * n;
        // every layer's keys in one set and its values in another (the GPU: one allocation each)
        keys = be.allocateHalf(cache, layers, MemoryCategory.SELF_KV);
        values = be.allocateHalf(cache, layers, MemoryCategory.SELF_KV);
        act = new DecoderActivations(be, dec.dims, maxBatch, scratch, ModelMemory.MAX_SEQUENCES);
        keyCounts = new int[maxBatch];
        step = be.allocate(3, MemoryCategory.DECODER_SCRATCH);
        int vocab = dec.dims.nVocab();
        greedyGraph = new CheckedStepGraph(be, vocab, "decoder step", why -> {
            LOG.warning(() -> "decoder steps run eagerly on " + be.name() + ": " + why);
            be.refuseGraphs(why);
        });
        boolean beams = maxBatch > 1;
        beamStep = beams ? be.allocate(3 + 3L * maxBatch, MemoryCategory.DECODER_SCRATCH) : null;
        beamStepValues = beams ? new int[3 + 3 * maxBatch] : null;
        beamGraph = new CheckedStepGraph(be, vocab, "beam step",
                why -> LOG.warning(() -> "beam steps run eagerly on " + be.name() + ": " + why));
        if (beams) {
            beamRows.allocateTable(); // before any capture: a graph names its address
        }
    }

    @Override
    public void reset(EncodedAudio encoded, int batch) {
        if (!(encoded instanceof EncodedWindow w)) {
            throw new IllegalArgumentException("audio was encoded by another model");
        }
        checkBatch(batch);
        greedyGraph.dropUnless(w.buffers());
        beamGraph.dropUnless(w.buffers());
        this.audio = w;
        this.batch = batch;
        this.length = 0;
        boolean interleaved = reorder == Reorder.BY_INDEX && batch > 1;
        posStride = interleaved ? maxBatch : 1;
        beamStride = interleaved ? 1 : ctx;
        beamRows.reset(beamStride, posStride);
    }

    @Override
    public void feed(int[][] tokens, float[][] out) {
        WindowBuffers window = checkFeed(tokens.length, tokens[0].length);
        try (ScratchRegion.Lease l = lease()) {
            feed(tokens, out, window);
        }
    }

    /** Holds the scratch region for one feed; graphs over another generation of it are dropped. */
    private ScratchRegion.Lease lease() {
        return act.acquire(() -> {
            greedyGraph.drop();
            beamGraph.drop();
        });
    }

    private void feed(int[][] tokens, float[][] out, WindowBuffers window) {
        int len = tokens[0].length;
        if (batch == 1 && len == 1 && !beamRows.moved()) {
            feedStep(tokens[0][0], out[0], window);
            return;
        }
        if (batch > 1 && len == 1 && beamStride == 1 && be.capturesSteps() && !beamGraph.off()) {
            feedBeamStep(tokens, out, window);
            return;
        }
        DecoderScratch s = forward(tokens, len, window);
        Buffer last = act.last();
        Buffer logits = act.logits();
        // Only the last position of each sequence is needed: LayerNorm and project those rows (with one
        // token per sequence, x's rows are those rows).
        if (len == 1) {
            be.layerNorm(s.x, batch, n, dec.ln.gain(), dec.ln.bias(), last);
        } else {
            for (int b = 0; b < batch; b++) {
                be.copy(s.x, (long) (b * len + len - 1) * n, last, (long) b * n, n);
            }
            be.layerNorm(last, batch, n, dec.ln.gain(), dec.ln.bias(), last);
        }
        be.linear(last, 0, batch, dec.tokens, null, logits, 0, Epilogue.NONE);
        int vocab = dec.dims.nVocab();
        if (hostLogits.length < batch * vocab) {
            hostLogits = new float[batch * vocab];
        }
        be.download(logits, 0, hostLogits, 0, batch * vocab); // one transfer (one wait), not one per sequence
        for (int b = 0; b < batch; b++) {
            System.arraycopy(hostLogits, b * vocab, out[b], 0, vocab);
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
        try (ScratchRegion.Lease l = lease()) {
            feedAll(tokens, from, out, window);
        }
    }

    private void feedAll(int[] tokens, int from, float[][] out, WindowBuffers window) {
        int len = tokens.length;
        int count = len - from;
        DecoderScratch s = forward(new int[][] {tokens}, len, window);
        // Every row from `from` on: LayerNorm them (in the free h rows) and project them in one product.
        int vocab = dec.dims.nVocab();
        be.copy(s.x, (long) from * n, s.h, 0, (long) count * n);
        be.layerNorm(s.h, count, n, dec.ln.gain(), dec.ln.bias(), s.h);
        Buffer allLogits = act.draftLogits(count);
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
        beamRows.truncate(length, batch);
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
    private DecoderScratch forward(int[][] tokens, int len, WindowBuffers window) {
        int rows = batch * len;
        DecoderScratch s = act.rows(rows);
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
        if (greedyGraph.replays(window, 1)) {
            greedyGraph.replay();
        } else {
            greedyGraph.drop();
            runStep(window);
            if (!greedyGraph.off()) {
                greedyGraph.capture(() -> runStep(window), window, 1, act.logits());
            }
        }
        be.download(act.logits(), 0, out, 0, dec.dims.nVocab());
        length++;
    }

    /**
     * One token for each of several sequences on a backend that captures steps (beam search): the
     * values go to {@link #beamStep} and the step runs as a graph, through the row tables from the first
     * token on (the identity until a reorder), the sequences' new rows appended at the position in one
     * copy each for keys and values (the rows are position-major). Eagerly on the CPU, {@link #forward}
     * computes the same.
     */
    private void feedBeamStep(int[][] tokens, float[][] out, WindowBuffers window) {
        int vocab = dec.dims.nVocab();
        beamStepValues[1] = length;
        beamStepValues[2] = length + 1;
        for (int b = 0; b < batch; b++) {
            if (tokens[b][0] < 0 || tokens[b][0] >= vocab) {
                throw new IllegalArgumentException("token id " + tokens[b][0] + " outside the vocabulary");
            }
            beamStepValues[3 + b] = tokens[b][0];
            beamStepValues[3 + batch + b] = length;
            beamStepValues[3 + 2 * batch + b] = length + 1;
        }
        be.uploadInts(beamStepValues, beamStep, 3 + 3 * batch);
        beamRows.publishOwnRows(batch);
        int rows = batch;
        if (beamGraph.replays(window, rows)) {
            beamGraph.replay();
        } else {
            beamGraph.drop();
            runBeamStep(window, rows);
            beamGraph.capture(() -> runBeamStep(window, rows), window, rows, act.logits());
        }
        if (hostLogits.length < rows * vocab) {
            hostLogits = new float[rows * vocab];
        }
        be.download(act.logits(), 0, hostLogits, 0, rows * vocab);
        for (int b = 0; b < rows; b++) {
            System.arraycopy(hostLogits, b * vocab, out[b], 0, vocab);
        }
        length++;
    }

    /** The beam step's ops: values from {@link #beamStep}; buffers a graph keeps (its scratch, caches, table, window). */
    private void runBeamStep(WindowBuffers window, int rows) {
        DecoderScratch s = act.beamOne();
        be.embedRowsStep(beamStep, 3, rows, dec.tokens, dec.positions, s.x);
        for (int l = 0; l < dec.blocks.length; l++) {
            BlockWeights blk = dec.blocks[l];
            AttentionWeights sa = blk.attn();
            be.layerNorm(s.x, rows, n, blk.attnLn().gain(), blk.attnLn().bias(), s.h);
            be.project(s.h, rows, new Projection(sa.query(), sa.queryBias(), s.q),
                    new Projection(sa.key(), null, s.kNew), new Projection(sa.value(), sa.valueBias(), s.vNew));
            be.kvAppendStep(s.kNew, keys[l], (long) posStride * n, beamStep, rows * n);
            be.kvAppendStep(s.vNew, values[l], (long) posStride * n, beamStep, rows * n);
            be.attentionRowsStep(s.q, rows, keys[l], values[l], n, beamRows.table(), beamRows.stride(), beamStep,
                    3 + 2 * rows, heads, n / heads, s.att);
            be.linear(s.att, 0, rows, sa.out(), sa.outBias(), s.x, 0, Epilogue.ADD);
            crossAndMlp(l, rows, s, window);
        }
        be.layerNorm(s.x, rows, n, dec.ln.gain(), dec.ln.bias(), act.last());
        be.linear(act.last(), 0, rows, dec.tokens, null, act.logits(), 0, Epilogue.NONE);
    }

    /**
     * The step's ops: everything reads the token, position and key count from {@link #step}; the
     * buffers are the step scratch, the caches and {@code window}'s, all of which a graph keeps.
     */
    private void runStep(WindowBuffers window) {
        DecoderScratch s = act.one();
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
        be.normLinear(s.x, 1, dec.ln.gain(), dec.ln.bias(), act.last(), dec.tokens, null, act.logits(),
                Epilogue.NONE);
    }

    private void layer(int l, int rows, int len, DecoderScratch s, WindowBuffers window) {
        BlockWeights blk = dec.blocks[l];
        AttentionWeights sa = blk.attn();
        be.layerNorm(s.x, rows, n, blk.attnLn().gain(), blk.attnLn().bias(), s.h);
        be.project(s.h, rows, new Projection(sa.query(), sa.queryBias(), s.q), new Projection(sa.key(), null, s.kNew),
                new Projection(sa.value(), sa.valueBias(), s.vNew));
        append(s.kNew, keys[l], len);
        append(s.vNew, values[l], len);
        if (beamRows.moved()) {
            be.attentionRows(s.q, n, batch, len, keys[l], values[l], n, beamRows.table(), beamRows.stride(), keyCounts,
                    heads, n / heads, true, s.att);
        } else {
            be.attention(s.q, n, batch, len, keys[l], values[l], 0, (long) beamStride * n, posStride * n, keyCounts,
                    heads, n / heads, true, s.att);
        }
        be.linear(s.att, 0, rows, sa.out(), sa.outBias(), s.x, 0, Epilogue.ADD);

        crossAndMlp(l, rows, s, window);
    }

    /**
     * Writes the new rows (sequence b's i-th of {@code len} at row {@code b * len + i} of {@code fresh})
     * to their own cache rows from position {@link #length}: one copy where they lie together in the
     * cache (a decoded token's rows position-major, a sequence's rows sequence-major), else one per row.
     */
    private void append(Buffer fresh, Buffer cache, int len) {
        if (len == 1 && beamStride == 1 || batch == 1 && posStride == 1) {
            be.copy(fresh, 0, cache, (long) beamRows.own(0, length) * n, (long) batch * len * n);
        } else if (posStride == 1) {
            for (int b = 0; b < batch; b++) {
                be.copy(fresh, (long) b * len * n, cache, (long) beamRows.own(b, length) * n, (long) len * n);
            }
        } else {
            for (int b = 0; b < batch; b++) {
                for (int i = 0; i < len; i++) {
                    be.copy(fresh, ((long) b * len + i) * n, cache, (long) beamRows.own(b, length + i) * n, n);
                }
            }
        }
    }

    /** Cross-attention and MLP of layer {@code l}, the same for the step and a batch of rows. */
    private void crossAndMlp(int l, int rows, DecoderScratch s, WindowBuffers w) {
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
        for (int src : sourceOf) {
            if (src < 0 || src >= batch) {
                throw new IllegalArgumentException("no sequence " + src + " in a batch of " + batch);
            }
        }
        if (reorder == Reorder.BY_INDEX) {
            beamRows.reorder(sourceOf, length);
        } else {
            copyRows(sourceOf);
        }
        batch = sourceOf.length;
    }

    /** {@link Reorder#BY_COPY}: sequence i's rows copied from its source's into the second set, then swapped. */
    private void copyRows(int[] sourceOf) {
        greedyGraph.drop(); // the caches it names move
        if (spareKeys[0] == null) {
            long cache = (long) maxBatch * ctx * n;
            spareKeys = be.allocateHalf(cache, keys.length, MemoryCategory.SELF_KV);
            spareValues = be.allocateHalf(cache, keys.length, MemoryCategory.SELF_KV);
        }
        for (int l = 0; l < keys.length; l++) {
            for (int i = 0; i < sourceOf.length; i++) {
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

    @Override
    public void close() {
        greedyGraph.close();
        beamGraph.close();
        act.close();
        DecoderScratch.closeAll(step, beamStep);
        DecoderScratch.closeAll(keys);
        DecoderScratch.closeAll(values);
        DecoderScratch.closeAll(spareKeys);
        DecoderScratch.closeAll(spareValues);
        beamRows.close();
    }
}
