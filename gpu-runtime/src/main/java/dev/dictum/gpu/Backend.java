package dev.dictum.gpu;

/**
 * The few coarse operations a Whisper model is written against. A backend owns its memory
 * (weights uploaded once, activation buffers allocated per utterance) and runs every op in order
 * on one stream: an op may return before its work is done, and only {@link #download} and
 * {@link #synchronize} wait. The CPU backend runs ops eagerly; GPU backends (HIP, CUDA) enqueue.
 *
 * <p>Layouts: activations are row-major f32 matrices {@code [rows, cols]}; a linear weight is
 * {@code [out, in]} (PyTorch order) in whatever dtype the model file stores.
 */
public interface Backend extends AutoCloseable {

    /** For messages and benchmarks: "cpu", "cuda:0 (NVIDIA H100)", ... */
    String name();

    /**
     * Refuses, before anything is uploaded, a model that needs {@code bytes} of this backend's device
     * memory (weights, caches, scratch) when they do not fit ({@link MemoryFit}). The CPU maps the file
     * and never refuses; a GPU throws {@link ModelTooLarge} with the sizes in its message.
     */
    default void checkFits(String what, long bytes) {
    }

    /** Makes a weight resident on this backend (the CPU backend keeps the mapped segment). */
    Weight upload(HostTensor tensor);

    /**
     * Makes {@code layers} resident as {@link LayerTurns}: {@code layers[i]} the tensors of layer i, every layer
     * the same shapes in the same order. With {@code inTurns} 0 each is uploaded once ({@link ResidentLayers});
     * a backend with device memory may keep the last {@code inTurns} layers in host memory and bring each into
     * one of two device slots before it runs (issue 22: a model that does not fit the device whole). This
     * default (the CPU, whose memory is the host's) keeps every layer resident.
     */
    default LayerTurns uploadInTurns(HostTensor[][] layers, int inTurns) {
        return new ResidentLayers(this, layers);
    }

    /**
     * The device memory a model may take here, in bytes: {@link MemoryFit}'s share of what is free, or less
     * where the user set a limit. Unbounded on a backend whose memory is the host's (the CPU).
     */
    default long memoryAvailable() {
        return Long.MAX_VALUE;
    }

    /** A zero-filled f32 activation buffer of {@code floats} elements. */
    Buffer allocate(long floats);

    /**
     * {@link #allocate} counted under {@code category} in {@link #memoryReport}; this default (a backend
     * that keeps no accounts) ignores the category.
     */
    default Buffer allocate(long floats, MemoryCategory category) {
        return allocate(floats);
    }

    /**
     * A buffer of {@code values} values that this backend may store as f16 (half the bytes; each value
     * rounded to nearest even when written): the cross-attention keys and values and the decoder's
     * self-attention K/V caches (issue 22). Only {@link #project} (as an out), {@link #transpose} (as dst),
     * {@link #copy} (as dst), {@link #kvAppendStep} (as dst) and {@link #projectStep} (as the caches) write
     * it and only {@link #crossAttention}, {@link #attention}, {@link #attentionRows}, {@link #attentionStep}
     * and {@link #attentionRowsStep} (as k and v, both f16) read it. This default (the CPU) keeps f32.
     */
    default Buffer allocateHalf(long values, MemoryCategory category) {
        return allocate(values, category);
    }

    /**
     * {@code count} buffers as {@link #allocateHalf}, each closed on its own, that the backend may place in
     * one allocation (the GPU: its pages round once for the set, not once a buffer). This default
     * allocates them one by one.
     */
    default Buffer[] allocateHalf(long values, int count, MemoryCategory category) {
        Buffer[] set = new Buffer[count];
        try {
            for (int i = 0; i < count; i++) {
                set[i] = allocateHalf(values, category);
            }
        } catch (RuntimeException e) {
            for (Buffer b : set) {
                if (b != null) {
                    b.close();
                }
            }
            throw e;
        }
        return set;
    }

    /**
     * f32 buffers for phases that never run at once (issue 22 item 1: the encoder's activations and the
     * decoders'): {@code layouts[p][i]} is the size in floats of phase p's i-th buffer, and the result's
     * {@code [p][i]} that buffer. A backend may lay every phase out from the start of one allocation, so that
     * the phases' buffers overlap and the memory is held once, as large as the largest phase (the GPU does,
     * counted once under {@code category}); nothing else may then be assumed about their contents: a phase
     * must write a buffer before it reads it. The memory goes when every buffer of the result is closed. This
     * default (the CPU, whose buffers are arrays of their own) allocates each buffer on its own.
     */
    default Buffer[][] allocateOverlaid(long[][] layouts, MemoryCategory category) {
        Buffer[][] out = new Buffer[layouts.length][];
        try {
            for (int p = 0; p < layouts.length; p++) {
                out[p] = new Buffer[layouts[p].length];
                for (int i = 0; i < layouts[p].length; i++) {
                    out[p][i] = allocate(layouts[p][i], category);
                }
            }
        } catch (RuntimeException e) {
            for (Buffer[] phase : out) {
                for (int i = 0; phase != null && i < phase.length; i++) {
                    if (phase[i] != null) {
                        phase[i].close();
                    }
                }
            }
            throw e;
        }
        return out;
    }

    /** What this backend holds, by category, and the device's own figure where it has one. */
    default MemoryReport memoryReport() {
        return new MemoryLedger().report(-1, -1, -1);
    }

    /**
     * The model has uploaded every weight: a backend may free what only uploads use (the GPU's raw
     * upload scratch, as large as the largest weight as stored).
     */
    default void weightsUploaded() {
    }

    /** Copies {@code count} floats from the host into {@code dst} at {@code dstOffset}. */
    void upload(float[] src, int srcOffset, Buffer dst, long dstOffset, int count);

    /** Copies {@code count} floats of {@code src} at {@code srcOffset} to the host; waits for queued work. */
    void download(Buffer src, long srcOffset, float[] dst, int dstOffset, int count);

    /**
     * Copies {@code count} floats between buffers (may overlap only if equal); into an
     * {@link #allocateHalf} buffer, rounded.
     */
    void copy(Buffer src, long srcOffset, Buffer dst, long dstOffset, long count);

    /**
     * {@code out[r] = epilogue(x[r] · Wᵀ + bias)} for {@code rows} rows of {@code x} ({@code [rows, in]});
     * with {@link Epilogue#ADD} the result is added to {@code out} (a residual connection in place).
     *
     * @param bias may be null
     */
    void linear(Buffer x, long xOffset, int rows, Weight w, Weight bias, Buffer out, long outOffset, Epilogue epilogue);

    /** One projection of {@link #project}: {@code out = x · wᵀ + bias} from row 0 (bias may be null). */
    record Projection(Weight w, Weight bias, Buffer out) {
    }

    /**
     * Several projections of the same {@code rows} rows of {@code x} (attention's query, key and value;
     * a layer's cross keys and values), each exactly as {@link #linear} with {@link Epilogue#NONE}.
     * A backend may run them together (the GPU: one launch for a decoded token's three, one f16 split
     * of x for the encoder's); this default runs them one by one.
     */
    default void project(Buffer x, int rows, Projection... projections) {
        for (Projection p : projections) {
            linear(x, 0, rows, p.w(), p.bias(), p.out(), 0, Epilogue.NONE);
        }
    }

    /** LayerNorm over the last dimension ({@code cols}), eps 1e-5, with gain and bias. */
    void layerNorm(Buffer x, int rows, int cols, Weight gain, Weight bias, Buffer out);

    /**
     * {@link #linear} of {@code LayerNorm(x)} (gain, lnBias; eps 1e-5) for {@code rows} rows from row 0:
     * this default normalises into {@code normed} ({@code [rows, in]}) and runs {@code linear} on it; a
     * backend may instead normalise while loading x (the GPU for one row: one launch instead of two)
     * and leave {@code normed} alone, so its contents afterwards are unspecified.
     */
    default void normLinear(Buffer x, int rows, Weight gain, Weight lnBias, Buffer normed, Weight w, Weight bias,
            Buffer out, Epilogue epilogue) {
        layerNorm(x, rows, Math.toIntExact(w.cols()), gain, lnBias, normed);
        linear(normed, 0, rows, w, bias, out, 0, epilogue);
    }

    /**
     * The decoder step's self-attention input for one row: {@code LayerNorm(x)} projected as
     * {@link #project} by q, k and v, q into {@code q.out()}, the key and value rows written to row
     * {@code step[1]} of {@code keys} and {@code values} (row stride {@code rowStride}). This default
     * runs {@code layerNorm} into {@code normed}, {@code project} into the three outs and two
     * {@link #kvAppendStep}s; a backend may do it in one launch that writes the cache rows directly,
     * leaving {@code normed}, {@code k.out()} and {@code v.out()} unspecified.
     */
    default void projectStep(Buffer x, Weight gain, Weight lnBias, Buffer normed, Projection q, Projection k,
            Projection v, Buffer keys, Buffer values, long rowStride, Buffer step) {
        layerNorm(x, 1, Math.toIntExact(q.w().cols()), gain, lnBias, normed);
        project(normed, 1, q, k, v);
        kvAppendStep(k.out(), keys, rowStride, step, Math.toIntExact(k.w().rows()));
        kvAppendStep(v.out(), values, rowStride, step, Math.toIntExact(v.w().rows()));
    }

    /**
     * {@code out = gelu(conv1d(in, w, padding 1) + bias)} for a kernel of 3 taps, as Whisper's audio
     * front end has it. {@code in} is {@code [inChannels, inFrames]} when {@code channelMajor}
     * (the log-mel), else {@code [inFrames, inChannels]} (the first conv's output); {@code out} is
     * {@code [outFrames, outChannels]} with {@code outFrames = (inFrames + 2 - 3) / stride + 1}.
     */
    void conv1dGelu(Buffer in, boolean channelMajor, int inChannels, int inFrames, Weight w, Weight bias,
            int stride, Buffer out);

    /** {@code x[r] += table[firstRow + r]} for {@code rows} rows: positional embeddings. */
    void addRows(Buffer x, int rows, Weight table, int firstRow);

    /**
     * {@code out[i] = tokenTable[tokens[i]] + positionTable[positions[i]]}, rows of {@code cols}.
     */
    void embed(int[] tokens, int[] positions, int count, Weight tokenTable, Weight positionTable, Buffer out);

    /**
     * Multi-head scaled dot-product attention for {@code batch} independent sequences.
     * Sequence b has {@code queries} query rows at {@code q[(b * queries + i) * qStride + h * headDim]};
     * its keys and values are rows {@code 0 .. keys[b]-1} of {@code k}/{@code v} starting at
     * {@code kvOffset + b * kvBatchStride} with row stride {@code kvStride}. With {@code causal}, query i
     * sees keys {@code 0 .. keys[b] - queries + i} (it is the last {@code queries} positions).
     * Output rows like q's, {@code heads * headDim} wide, row stride {@code heads * headDim}.
     */
    void attention(Buffer q, int qStride, int batch, int queries, Buffer k, Buffer v, long kvOffset,
            long kvBatchStride, int kvStride, int[] keys, int heads, int headDim, boolean causal, Buffer out);

    /**
     * {@link #attention} whose sequences reach their keys and values through a row table, so that beam
     * search reorders its sequences by rewriting small tables instead of copying cache rows: key/value j
     * of sequence b is row {@code rows[b * rowsStride + j]} of {@code k} and {@code v} (row stride
     * {@code kvStride}, counted from element 0). {@code rows} holds the row numbers as int bit patterns
     * (as {@link #uploadInts} writes them); every entry below {@code keys[b]} must name a row inside k and v.
     * The arithmetic is {@link #attention}'s, so equal rows give equal outputs either way.
     */
    void attentionRows(Buffer q, int qStride, int batch, int queries, Buffer k, Buffer v, int kvStride, Buffer rows,
            int rowsStride, int[] keys, int heads, int headDim, boolean causal, Buffer out);

    /**
     * Cross-attention of {@code rows} decoder rows to one encoded window, shared by every row.
     * {@code keysT} holds the keys transposed: channel c of key j at {@code c * keysStride + j}
     * ({@code keysStride >= keys}), the layout in which one query's scores are broadcast FMAs along
     * the keys; {@code values} is {@code [keys, heads * headDim]}. q and out are
     * {@code [rows, heads * headDim]}.
     */
    void crossAttention(Buffer q, int rows, Buffer keysT, int keysStride, Buffer values, int keys, int heads,
            int headDim, Buffer out);

    /** {@code dst[c * dstStride + r] = src[r * cols + c]}: a {@code [rows, cols]} matrix transposed. */
    void transpose(Buffer src, int rows, int cols, Buffer dst, int dstStride);

    /*
     * The decoder step in a form a backend can capture once and replay (one launch per token): the
     * values that change per token live in a small "step" buffer of three ints stored as their bit
     * patterns ({token id, position, key count}), read by the ops when they run, not when they are
     * queued. The defaults read the step buffer on the host and call the ops above, so a backend
     * without graphs (the CPU) runs the same model code unchanged.
     */

    /** Stores {@code count} ints as their bit patterns in {@code dst} (a step buffer). */
    default void uploadInts(int[] src, Buffer dst, int count) {
        float[] bits = new float[count];
        for (int i = 0; i < count; i++) {
            bits[i] = Float.intBitsToFloat(src[i]);
        }
        upload(bits, 0, dst, 0, count);
    }

    /** One decoder input row: {@code embed} of token {@code step[0]} at position {@code step[1]}. */
    default void embedStep(Buffer step, Weight tokenTable, Weight positionTable, Buffer out) {
        int[] s = stepValues(step);
        embed(new int[] {s[0]}, new int[] {s[1]}, 1, tokenTable, positionTable, out);
    }

    /** {@code count} floats of {@code src} copied to row {@code step[1]} of {@code dst} (row stride {@code rowStride}). */
    default void kvAppendStep(Buffer src, Buffer dst, long rowStride, Buffer step, int count) {
        copy(src, 0, dst, stepValues(step)[1] * rowStride, count);
    }

    /** Causal {@code attention} of one query of one sequence to its first {@code step[2]} keys. */
    default void attentionStep(Buffer q, Buffer k, Buffer v, int kvStride, Buffer step, int heads, int headDim,
            Buffer out) {
        attention(q, kvStride, 1, 1, k, v, 0, 0, kvStride, new int[] {stepValues(step)[2]}, heads, headDim, true,
                out);
    }

    /*
     * A decoder step of several sequences (beam search, one token each) in the same form: its step
     * buffer holds, from int {@code at}, the {@code count} token ids, then their positions, then their
     * key counts.
     */

    /** {@code count} decoder input rows: {@code embed} of tokens {@code step[at..]} at positions {@code step[at + count..]}. */
    default void embedRowsStep(Buffer step, int at, int count, Weight tokenTable, Weight positionTable, Buffer out) {
        int[] s = ints(step, at, 2 * count);
        embed(java.util.Arrays.copyOf(s, count), java.util.Arrays.copyOfRange(s, count, 2 * count), count, tokenTable,
                positionTable, out);
    }

    /**
     * {@link #attentionRows} of one query per sequence ({@code q} is {@code [batch, heads * headDim]}), causal,
     * sequence b seeing its first {@code step[at + b]} keys.
     */
    default void attentionRowsStep(Buffer q, int batch, Buffer k, Buffer v, int kvStride, Buffer rows,
            int rowsStride, Buffer step, int at, int heads, int headDim, Buffer out) {
        attentionRows(q, heads * headDim, batch, 1, k, v, kvStride, rows, rowsStride, ints(step, at, batch), heads,
                headDim, true, out);
    }

    /**
     * Captures the ops {@code step} queues (none of them may wait for the device or read the host's
     * values of the step buffer) as one graph; null where this backend has no graphs (CPU, HIP) or
     * they were refused. The ops are recorded, not run.
     *
     * @throws RuntimeException when capturing fails; the backend's stream is usable again after it
     */
    default StepGraph capture(Runnable step) {
        return null;
    }

    /** Stops {@link #capture} for this backend (a graph failed its replay-compare self-test). */
    default void refuseGraphs(String reason) {
    }

    /**
     * Whether {@link #capture} may give a graph now (graphs exist and were not refused): the model
     * then keeps the buffers a captured step names (one window's cross keys/values, one decoder
     * state) from one transcription to the next, so that the next one replays the same graph.
     */
    default boolean capturesSteps() {
        return false;
    }

    private int[] stepValues(Buffer step) {
        return ints(step, 0, 3);
    }

    /** {@code count} ints stored from {@code at} of {@code b} as their bit patterns. */
    private int[] ints(Buffer b, int at, int count) {
        float[] bits = new float[count];
        download(b, at, bits, 0, count);
        int[] out = new int[count];
        for (int i = 0; i < count; i++) {
            out[i] = Float.floatToRawIntBits(bits[i]);
        }
        return out;
    }

    /** Waits for all queued work. */
    void synchronize();

    @Override
    void close();
}
