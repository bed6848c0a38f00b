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
     * Refuses, before anything is uploaded, a model that cannot fit: {@code weightElements} weight
     * values plus {@code workingFloats} floats of activations and caches. The CPU maps the file and
     * never refuses; a GPU throws {@link ModelTooLarge} with the sizes in its message.
     */
    default void checkFits(String what, long weightElements, long workingFloats) {
    }

    /** Makes a weight resident on this backend (the CPU backend keeps the mapped segment). */
    Weight upload(HostTensor tensor);

    /** A zero-filled f32 activation buffer of {@code floats} elements. */
    Buffer allocate(long floats);

    /** Copies {@code count} floats from the host into {@code dst} at {@code dstOffset}. */
    void upload(float[] src, int srcOffset, Buffer dst, long dstOffset, int count);

    /** Copies {@code count} floats of {@code src} at {@code srcOffset} to the host; waits for queued work. */
    void download(Buffer src, long srcOffset, float[] dst, int dstOffset, int count);

    /** Copies {@code count} floats between buffers (may overlap only if equal). */
    void copy(Buffer src, long srcOffset, Buffer dst, long dstOffset, long count);

    /**
     * {@code out[r] = epilogue(x[r] · Wᵀ + bias)} for {@code rows} rows of {@code x} ({@code [rows, in]});
     * with {@link Epilogue#ADD} the result is added to {@code out} (a residual connection in place).
     *
     * @param bias may be null
     */
    void linear(Buffer x, long xOffset, int rows, Weight w, Weight bias, Buffer out, long outOffset, Epilogue epilogue);

    /** LayerNorm over the last dimension ({@code cols}), eps 1e-5, with gain and bias. */
    void layerNorm(Buffer x, int rows, int cols, Weight gain, Weight bias, Buffer out);

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

    /** Waits for all queued work. */
    void synchronize();

    @Override
    void close();
}
