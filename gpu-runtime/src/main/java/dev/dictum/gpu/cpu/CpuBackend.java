package dev.dictum.gpu.cpu;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.Epilogue;
import dev.dictum.gpu.HostTensor;
import dev.dictum.gpu.MemoryCategory;
import dev.dictum.gpu.MemoryLedger;
import dev.dictum.gpu.MemoryReport;
import dev.dictum.gpu.Weight;

/**
 * The pure-Java backend: always available, and the numeric reference the GPU backends are tested
 * against. Ops run eagerly on the calling thread, fanning out to the shared worker pool inside the
 * kernels, so {@link #synchronize()} has nothing to wait for.
 */
public final class CpuBackend implements Backend {

    @Override
    public String name() {
        return "cpu (" + Runtime.getRuntime().availableProcessors() + " threads, "
                + jdk.incubator.vector.FloatVector.SPECIES_PREFERRED.vectorBitSize() + "-bit vectors)";
    }

    @Override
    public Weight upload(HostTensor tensor) {
        return CpuWeight.of(tensor, tensor.rank() == 1);
    }

    /** The activation buffers' heap bytes by category (weights are the mapped file: not counted). */
    private final MemoryLedger ledger = new MemoryLedger();

    @Override
    public Buffer allocate(long floats) {
        return allocate(floats, MemoryCategory.OTHER);
    }

    @Override
    public Buffer allocate(long floats, MemoryCategory category) {
        return new CpuBuffer(floats, ledger, category);
    }

    /** The buffers' heap bytes; no device figures (-1). */
    @Override
    public MemoryReport memoryReport() {
        return ledger.report(-1, -1, -1);
    }

    @Override
    public void upload(float[] src, int srcOffset, Buffer dst, long dstOffset, int count) {
        System.arraycopy(src, srcOffset, data(dst), Math.toIntExact(dstOffset), count);
    }

    @Override
    public void download(Buffer src, long srcOffset, float[] dst, int dstOffset, int count) {
        System.arraycopy(data(src), Math.toIntExact(srcOffset), dst, dstOffset, count);
    }

    @Override
    public void copy(Buffer src, long srcOffset, Buffer dst, long dstOffset, long count) {
        System.arraycopy(data(src), Math.toIntExact(srcOffset), data(dst), Math.toIntExact(dstOffset),
                Math.toIntExact(count));
    }

    @Override
    public void linear(Buffer x, long xOffset, int rows, Weight w, Weight bias, Buffer out, long outOffset,
            Epilogue epilogue) {
        float[] b = bias == null ? null : ((CpuWeight) bias).dense;
        CpuLinear.run(data(x), Math.toIntExact(xOffset), rows, (CpuWeight) w, b, data(out),
                Math.toIntExact(outOffset), epilogue);
    }

    @Override
    public void layerNorm(Buffer x, int rows, int cols, Weight gain, Weight bias, Buffer out) {
        CpuLayerNorm.run(data(x), rows, cols, ((CpuWeight) gain).dense, ((CpuWeight) bias).dense, data(out));
    }

    @Override
    public void conv1dGelu(Buffer in, boolean channelMajor, int inChannels, int inFrames, Weight w, Weight bias,
            int stride, Buffer out) {
        CpuConv.conv3Gelu(data(in), channelMajor, inChannels, inFrames, w.source(), ((CpuWeight) bias).dense, stride,
                data(out));
    }

    @Override
    public void addRows(Buffer x, int rows, Weight table, int firstRow) {
        float[] xs = data(x);
        HostTensor t = table.source();
        int cols = (int) t.cols();
        float[] row = new float[cols];
        for (int r = 0; r < rows; r++) {
            Dequant.row(t, firstRow + r, row, 0);
            int base = r * cols;
            for (int c = 0; c < cols; c++) {
                xs[base + c] += row[c];
            }
        }
    }

    @Override
    public void embed(int[] tokens, int[] positions, int count, Weight tokenTable, Weight positionTable, Buffer out) {
        float[] o = data(out);
        CpuWeight table = (CpuWeight) tokenTable;
        HostTensor tok = tokenTable.source();
        HostTensor pos = positionTable.source();
        int cols = (int) tok.cols();
        float[] row = new float[cols];
        for (int i = 0; i < count; i++) {
            if (tokens[i] < 0 || tokens[i] >= tok.rows()) {
                throw new IllegalArgumentException("token id " + tokens[i] + " outside the vocabulary");
            }
            if (positions[i] < 0 || positions[i] >= pos.rows()) {
                throw new IllegalArgumentException("position " + positions[i] + " beyond the text context "
                        + pos.rows());
            }
            table.row(tokens[i], o, i * cols);
            Dequant.row(pos, positions[i], row, 0);
            for (int c = 0; c < cols; c++) {
                o[i * cols + c] += row[c];
            }
        }
    }

    @Override
    public void attention(Buffer q, int qStride, int batch, int queries, Buffer k, Buffer v, long kvOffset,
            long kvBatchStride, int kvStride, int[] keys, int heads, int headDim, boolean causal, Buffer out) {
        CpuAttention.run(data(q), qStride, batch, queries, data(k), data(v), Math.toIntExact(kvOffset),
                Math.toIntExact(kvBatchStride), kvStride, keys, heads, headDim, causal, data(out));
    }

    @Override
    public void attentionRows(Buffer q, int qStride, int batch, int queries, Buffer k, Buffer v, int kvStride,
            Buffer rows, int rowsStride, int[] keys, int heads, int headDim, boolean causal, Buffer out) {
        CpuAttention.runRows(data(q), qStride, batch, queries, data(k), data(v), kvStride, data(rows), rowsStride,
                keys, heads, headDim, causal, data(out));
    }

    @Override
    public void crossAttention(Buffer q, int rows, Buffer keysT, int keysStride, Buffer values, int keys, int heads,
            int headDim, Buffer out) {
        CpuCrossAttention.run(data(q), rows, data(keysT), keysStride, data(values), keys, heads, headDim, data(out));
    }

    @Override
    public void transpose(Buffer src, int rows, int cols, Buffer dst, int dstStride) {
        float[] s = data(src);
        float[] d = data(dst);
        CpuThreads.forRange(cols, (lo, hi) -> {
            for (int c = lo; c < hi; c++) {
                for (int r = 0; r < rows; r++) {
                    d[c * dstStride + r] = s[r * cols + c];
                }
            }
        });
    }

    @Override
    public void synchronize() {
        // Eager: every op has finished when it returns.
    }

    @Override
    public void close() {
        // Nothing native to free: weights are the model's mapped segments, buffers are heap arrays.
    }

    private static float[] data(Buffer b) {
        return ((CpuBuffer) b).data;
    }
}
