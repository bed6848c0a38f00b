package dev.dictum.gpu.backend;

import static dev.dictum.gpu.backend.GpuMemory.anyBuf;
import static dev.dictum.gpu.backend.GpuMemory.buf;
import static dev.dictum.gpu.backend.GpuMemory.checkRange;

import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.device.KernelArgs;
import dev.dictum.gpu.device.KernelCache;
import dev.dictum.gpu.device.Stream;

/**
 * The launches that read or append to the decoder's self-attention K/V caches, f32 or f16
 * ({@code Backend#allocateHalf}, as the model keeps them on the GPU since issue 22): attention through
 * row tables ({@code attention_rows_f32} / {@code attention_rows_f16kv}; beam search's reorder by
 * index), the strided attention of an f16 cache and the one-query step of either (the same kernels
 * without a table: a prompt, a greedy step, beams not yet reordered) and the step's row append ({@code kv_append_f32} /
 * {@code kv_append_f16}); and the key counts' check that every self-attention launch makes. Kept out
 * of {@link GpuBackend}, which wires it; called under its lock.
 */
final class RowAttention {
    /** Threads per block: the kernel's tile of keys (ABI.md). */
    static final int BLOCK = 128;
    /** The kernel's largest head size. */
    static final int MAX_HEAD_DIM = 128;

    private final Stream stream;
    private final KernelCache kernels;
    private final GpuMemory memory;

    RowAttention(Stream stream, KernelCache kernels, GpuMemory memory) {
        this.stream = stream;
        this.kernels = kernels;
        this.memory = memory;
    }

    /** Every sequence sees at least one key, and with {@code causal} at least one per query. */
    static void checkKeys(int batch, int queries, int[] keys, boolean causal) {
        for (int b = 0; b < batch; b++) {
            if (keys[b] < 1 || causal && keys[b] < queries) {
                throw new IllegalArgumentException("sequence " + b + " has " + keys[b] + " keys for " + queries
                        + " queries");
            }
        }
    }

    /** Whether k and v are f16 caches; refuses a mixed pair rather than read one as the wrong type. */
    static boolean half(Buffer k, Buffer v) {
        boolean half = anyBuf(k).half();
        if (half != anyBuf(v).half()) {
            throw new IllegalArgumentException("self-attention keys and values stored alike (both f16 or both f32)");
        }
        return half;
    }

    /** Backend.attentionRows: the key counts on the host, checked, then staged. */
    void rows(Buffer q, int qStride, int batch, int queries, Buffer k, Buffer v, int kvStride, Buffer rows,
            int rowsStride, int[] keys, int heads, int headDim, boolean causal, Buffer out) {
        if (batch == 0 || queries == 0) {
            return;
        }
        checkKeys(batch, queries, keys, causal);
        for (int b = 0; b < batch; b++) {
            if (keys[b] > rowsStride) {
                throw new IllegalArgumentException("sequence " + b + " has " + keys[b] + " keys in a table of "
                        + rowsStride);
            }
        }
        rowsStep(q, qStride, batch, queries, k, v, kvStride, rows, rowsStride, memory.ints(keys, batch), heads,
                headDim, causal, out);
    }

    /**
     * Backend.attentionRows with the key counts at {@code keysDev} in device memory (a captured step's):
     * each of them must be at least {@code queries} (causal) and at most {@code rowsStride}, which the host
     * cannot check.
     */
    void rowsStep(Buffer q, int qStride, int batch, int queries, Buffer k, Buffer v, int kvStride, Buffer rows,
            int rowsStride, long keysDev, int heads, int headDim, boolean causal, Buffer out) {
        checkRange(buf(rows), 0, (long) batch * rowsStride);
        launch(q, qStride, batch, queries, k, 0, v, kvStride, buf(rows).at(0), rowsStride, 0, keysDev, heads, headDim,
                causal, out);
    }

    /**
     * Backend.attention over f16 caches (the GPU's self K/V): sequence b's key j at value
     * {@code kvOffset + b * kvBatchStride + j * kvStride}, through the row kernel without a table.
     */
    void strided(Buffer q, int qStride, int batch, int queries, Buffer k, Buffer v, long kvOffset, long kvBatchStride,
            int kvStride, int[] keys, int heads, int headDim, boolean causal, Buffer out) {
        if (batch == 0 || queries == 0) {
            return;
        }
        checkKeys(batch, queries, keys, causal);
        int most = 0;
        for (int b = 0; b < batch; b++) {
            most = Math.max(most, keys[b]);
        }
        long last = kvOffset + (batch - 1) * kvBatchStride + (long) (most - 1) * kvStride + (long) heads * headDim;
        checkRange(anyBuf(k), 0, last);
        checkRange(anyBuf(v), 0, last);
        launch(q, qStride, batch, queries, k, kvOffset, v, kvStride, 0, 0, kvBatchStride, memory.ints(keys, batch),
                heads, headDim, causal, out);
    }

    /**
     * Backend.attentionStep (f32 or f16 caches): one query, its first {@code step[2]} keys (read on the
     * device; the caller keeps them inside the caches), through the row kernel without a table.
     */
    void step(Buffer q, Buffer k, Buffer v, int kvStride, Buffer step, int heads, int headDim, Buffer out) {
        checkRange(buf(step), 0, 3);
        launch(q, kvStride, 1, 1, k, 0, v, kvStride, 0, 0, 0, buf(step).at(2), heads, headDim, true, out);
    }

    /** Backend.kvAppendStep: {@code count} floats of src into row {@code step[1]} of dst, rounded into an f16 cache. */
    void append(Buffer src, Buffer dst, long rowStride, Buffer step, int count) {
        checkRange(buf(step), 0, 3);
        checkRange(buf(src), 0, count);
        GpuBuffer d = anyBuf(dst);
        checkRange(d, 0, count); // row step[1] is read on the device: the caller keeps it in range
        memory.gridStride(kernels.kernel("kv_append", d.half() ? "kv_append_f16" : "kv_append_f32"), count,
                new KernelArgs().ptr(buf(src).at(0)).ptr(d.at(0)).ptr(buf(step).at(0)).i64(rowStride).i32(count));
    }

    /**
     * One launch of the row kernel that fits the caches: {@code rowsDev} 0 (no table) reads sequence b's
     * rows from {@code seqStride} values apart.
     */
    private void launch(Buffer q, int qStride, int batch, int queries, Buffer k, long kvOffset, Buffer v, int kvStride,
            long rowsDev, int rowsStride, long seqStride, long keysDev, int heads, int headDim, boolean causal,
            Buffer out) {
        if (headDim < 1 || headDim > MAX_HEAD_DIM) {
            throw new IllegalArgumentException("row-table attention takes head sizes 1.." + MAX_HEAD_DIM + ", not "
                    + headDim);
        }
        boolean half = half(k, v);
        checkRange(buf(q), 0, ((long) batch * queries - 1) * qStride + (long) heads * headDim);
        checkRange(buf(out), 0, (long) batch * queries * heads * headDim);
        kernels.kernel("attention_rows", half ? "attention_rows_f16kv" : "attention_rows_f32").launch(stream, queries,
                heads, batch, BLOCK, 0, new KernelArgs().ptr(buf(q).at(0)).i32(qStride).i32(queries)
                        .ptr(anyBuf(k).at(kvOffset)).ptr(anyBuf(v).at(kvOffset)).i32(kvStride).ptr(rowsDev)
                        .i32(rowsStride).i64(seqStride).ptr(keysDev).i32(heads).i32(headDim).i32(causal ? 1 : 0)
                        .ptr(buf(out).at(0)));
    }
}
