package dev.dictum.gpu.backend;

import static dev.dictum.gpu.backend.GpuMemory.buf;
import static dev.dictum.gpu.backend.GpuMemory.checkRange;

import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.device.Kernel;
import dev.dictum.gpu.device.KernelArgs;
import dev.dictum.gpu.device.Stream;

/**
 * The launch of {@code attention_rows_f32} (Backend.attentionRows: beam search's self-attention through
 * per-beam row tables, so that a reorder rewrites tables instead of copying cache rows), and the key
 * counts' check that every self-attention launch makes. Kept out of {@link GpuBackend}, which wires it.
 */
final class RowAttention {
    /** Threads per block: the kernel's tile of keys (ABI.md). */
    static final int BLOCK = 128;
    /** The kernel's largest head size. */
    static final int MAX_HEAD_DIM = 128;

    private RowAttention() {
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

    /** The launch with the key counts on the host: checked, then staged. */
    static void launch(Kernel kernel, Stream stream, GpuMemory memory, Buffer q, int qStride, int batch, int queries,
            Buffer k, Buffer v, int kvStride, Buffer rows, int rowsStride, int[] keys, int heads, int headDim,
            boolean causal, Buffer out) {
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
        launch(kernel, stream, q, qStride, batch, queries, k, v, kvStride, rows, rowsStride, memory.ints(keys, batch),
                heads, headDim, causal, out);
    }

    /**
     * The launch with the key counts at {@code keysDev} in device memory (a captured step's): each of them
     * must be at least {@code queries} (causal) and at most {@code rowsStride}, which the host cannot check.
     */
    static void launch(Kernel kernel, Stream stream, Buffer q, int qStride, int batch, int queries, Buffer k, Buffer v,
            int kvStride, Buffer rows, int rowsStride, long keysDev, int heads, int headDim, boolean causal,
            Buffer out) {
        if (headDim < 1 || headDim > MAX_HEAD_DIM) {
            throw new IllegalArgumentException("row-table attention takes head sizes 1.." + MAX_HEAD_DIM + ", not "
                    + headDim);
        }
        checkRange(buf(rows), 0, (long) batch * rowsStride);
        checkRange(buf(q), 0, ((long) batch * queries - 1) * qStride + (long) heads * headDim);
        checkRange(buf(out), 0, (long) batch * queries * heads * headDim);
        kernel.launch(stream, queries, heads, batch, BLOCK, 0, new KernelArgs().ptr(buf(q).at(0)).i32(qStride)
                .i32(queries).ptr(buf(k).at(0)).ptr(buf(v).at(0)).i32(kvStride).ptr(buf(rows).at(0))
                .i32(rowsStride).ptr(keysDev).i32(heads).i32(headDim).i32(causal ? 1 : 0).ptr(buf(out).at(0)));
    }
}
