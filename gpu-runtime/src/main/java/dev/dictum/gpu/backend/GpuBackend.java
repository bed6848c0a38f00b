package dev.dictum.gpu.backend;

import static dev.dictum.gpu.backend.GpuMemory.anyBuf;
import static dev.dictum.gpu.backend.GpuMemory.buf;
import static dev.dictum.gpu.backend.GpuMemory.checkRange;
import static dev.dictum.gpu.backend.GpuMemory.weight;
import static dev.dictum.gpu.backend.LaunchGeometry.ATTENTION_BLOCK;
import static dev.dictum.gpu.backend.LaunchGeometry.BLOCK;
import static dev.dictum.gpu.backend.LaunchGeometry.LAYER_NORM_BLOCK;
import static dev.dictum.gpu.backend.LaunchGeometry.LAYER_NORM_MAX_BLOCK;
import static dev.dictum.gpu.backend.LaunchGeometry.attentionQueriesPerBlock;
import static dev.dictum.gpu.backend.LaunchGeometry.attentionShared;
import static dev.dictum.gpu.backend.LaunchGeometry.ceil;
import static dev.dictum.gpu.backend.LaunchGeometry.gemmTile;
import static dev.dictum.gpu.backend.LaunchGeometry.layerNormGrid;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.Epilogue;
import dev.dictum.gpu.HostTensor;
import dev.dictum.gpu.LayerTurns;
import dev.dictum.gpu.MemoryCategory;
import dev.dictum.gpu.MemoryReport;
import dev.dictum.gpu.ResidentLayers;
import dev.dictum.gpu.StepGraph;
import dev.dictum.gpu.Weight;
import dev.dictum.gpu.device.Device;
import dev.dictum.gpu.device.DeviceProps;
import dev.dictum.gpu.device.GpuDriver;
import dev.dictum.gpu.device.Kernel;
import dev.dictum.gpu.device.KernelArgs;
import dev.dictum.gpu.device.KernelCache;
import dev.dictum.gpu.device.KernelImages;
import dev.dictum.gpu.device.Stream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@link Backend} on a GPU through either driver (HIP or CUDA), launching the kernels of
 * native/src/kernels exactly as ABI.md (v1) has them. Weights are uploaded as the file stores
 * them and turned into f16 on the device (convert/dequant kernels), a q8_0 file's matrices kept as
 * q8_0 blocks ({@link GpuMemory#upload}); activations are f32; every
 * launch and copy goes on one stream; only {@link #download} and {@link #synchronize} wait.
 * What is held in device memory is {@link GpuMemory}'s; which kernel an op takes, {@link KernelChoice}'s;
 * each launch's grid and shared memory, {@link LaunchGeometry}'s. The weight products' launches are
 * {@link ProjectionOps}', the self-attention caches' {@link RowAttention}'s, the cross K/V's
 * {@link CrossKvOps}'; this class wires them, and the small ops', to the {@link Backend} ops.
 * Ops are serialised on this object (one stream, one staging ring), so any thread may call them.
 */
public final class GpuBackend implements Backend {
    private final GpuDriver driver;
    private final Device device;
    private final Stream stream;
    private final KernelCache kernels;
    /** Weights, buffers, staging and the ops' scratch. */
    private final GpuMemory memory;
    /** The weight products' launches (GEMV, GEMM, the fused one-row ops). */
    private final ProjectionOps projection;
    private final CrossKvOps crossKv;
    /** The self-attention caches' launches (row tables, f16 caches, the step's append). */
    private final RowAttention selfKv;
    private boolean closed;
    /** Why {@link #capture} returns null, or null while graphs are used (DICTUM_CUDA_GRAPHS=0 turns them off). */
    private String graphsRefused;

    public GpuBackend(GpuDriver driver, int ordinal) {
        this(driver, ordinal, GpuMemory.limitFrom(System.getenv(GpuMemory.LIMIT_VARIABLE)));
    }

    /**
     * A backend on device {@code ordinal} where a model may hold at most {@code memoryLimit} bytes (what
     * DICTUM_GPU_MEMORY_MIB sets; {@code Long.MAX_VALUE}: no limit but the free memory).
     */
    public GpuBackend(GpuDriver driver, int ordinal, long memoryLimit) {
        this.driver = driver;
        this.device = new Device(driver, ordinal);
        this.stream = device.newStream();
        this.kernels = new KernelCache(device, KernelImages.load());
        this.memory = new GpuMemory(device, stream, kernels, memoryLimit);
        this.projection = new ProjectionOps(driver.api(), stream, kernels, device.props(),
                new HiloGemm(stream, kernels, memory, device.props()), memory);
        this.crossKv = new CrossKvOps(stream, kernels, memory, device.props());
        this.selfKv = new RowAttention(stream, kernels, memory);
        this.graphsRefused = !driver.graphsSupported() ? driver.api() + " graphs are not used"
                : "0".equals(System.getenv("DICTUM_CUDA_GRAPHS")) ? "DICTUM_CUDA_GRAPHS=0" : null;
    }
    @Override
    public String name() {
        DeviceProps p = device.props();
        return driver.api() + ":" + p.ordinal() + " (" + p.name() + ", " + p.archFull() + ")";
    }

    public DeviceProps props() {
        return device.props();
    }

    public GpuDriver driver() {
        return driver;
    }

    /** Code objects loaded so far ("gfx1010/gemm.hsaco", "sm_90/gemm.cubin", "ptx/gemm.ptx"). */
    public List<String> loadedImages() {
        return kernels.loadedImages();
    }

    /** Loads every module now (doctor; a missing image is found before a model is loaded). */
    public void loadAllModules() {
        for (String m : MODULES) {
            kernels.module(m);
        }
    }

    /** The kernel modules of ABI v1 (native/src/kernels, one per .cu file). */
    static final List<String> MODULES = List.of("convert", "dequant", "gemm", "gemv", "layer_norm", "conv1d_gelu",
            "add_rows", "embed", "attention", "attention_rows", "cross_attention", "transpose", "fill", "kv_append",
            "gemv_q8_0");

    /**
     * Bytes a weight takes on a GPU before the weight arena packs it (for ModelMemory's estimate, before
     * anything is loaded): its q8_0 blocks where {@link #upload} keeps them (issue 22), else 2 a value.
     */
    public static long weightBytes(HostTensor t) {
        return GpuWeight.keptAsQ8_0(t) ? t.data().byteSize() : 2 * t.elementCount();
    }

    /**
     * The weight scratch that {@code t} needs (the f16 values a GEMM reads of a matrix kept as q8_0, where a
     * many-row product dequantises it: {@link KernelChoice#dequantGemm}), or 0; the scratch is the largest.
     */
    public static long weightScratchBytes(HostTensor t) {
        boolean gemm = GpuWeight.keptAsQ8_0(t) && t.elementCount() <= KernelChoice.DEQUANT_GEMM_MAX_VALUES;
        return gemm ? 2 * t.elementCount() : 0;
    }

    @Override
    public synchronized void checkFits(String what, long bytes) {
        memory.checkFits(what, bytes, name());
    }

    @Override
    public synchronized long memoryAvailable() {
        return memory.available();
    }

    /** Layers whose weights take turns in device slots ({@link GpuLayerTurns}): closed before the memory. */
    private final List<GpuLayerTurns> turns = new ArrayList<>();

    @Override
    public synchronized LayerTurns uploadInTurns(HostTensor[][] layers, int inTurns) {
        if (inTurns == 0) {
            return new ResidentLayers(this, layers);
        }
        GpuLayerTurns t = new GpuLayerTurns(this, driver, stream, memory, layers, inTurns);
        turns.add(t);
        return t;
    }

    @Override
    public synchronized Weight upload(HostTensor t) {
        return memory.upload(t);
    }

    @Override
    public synchronized Buffer allocate(long floats) {
        return memory.allocate(floats, false, MemoryCategory.OTHER);
    }

    @Override
    public synchronized Buffer allocate(long floats, MemoryCategory category) {
        return memory.allocate(floats, false, category);
    }

    /** In f16: the cross K/V and the self K/V caches, half the bytes every decoded token reads (issue 22). */
    @Override
    public synchronized Buffer allocateHalf(long values, MemoryCategory category) {
        return memory.allocate(values, true, category);
    }

    /** One allocation for the whole set: the 2 MiB pages round once, not once a buffer. */
    @Override
    public synchronized Buffer[] allocateHalf(long values, int count, MemoryCategory category) {
        return memory.allocateSet(values, count, true, category);
    }

    /** Every phase from the start of one allocation: held once, as large as the largest phase (issue 22 item 1). */
    @Override
    public synchronized Buffer[][] allocateOverlaid(long[][] layouts, MemoryCategory category) {
        return memory.allocateOverlaid(layouts, category);
    }

    @Override
    public synchronized MemoryReport memoryReport() {
        return memory.report();
    }

    @Override
    public synchronized void weightsUploaded() {
        memory.uploadsDone();
    }

    @Override
    public synchronized void upload(float[] src, int srcOffset, Buffer dst, long dstOffset, int count) {
        memory.upload(src, srcOffset, dst, dstOffset, count);
    }

    @Override
    public synchronized void download(Buffer src, long srcOffset, float[] dst, int dstOffset, int count) {
        memory.download(src, srcOffset, dst, dstOffset, count);
    }

    @Override
    public synchronized void copy(Buffer src, long srcOffset, Buffer dst, long dstOffset, long count) {
        memory.copy(src, srcOffset, dst, dstOffset, count);
    }

    @Override
    public synchronized void linear(Buffer x, long xOffset, int rows, Weight w, Weight bias, Buffer out,
            long outOffset, Epilogue epilogue) {
        projection.linear(x, xOffset, rows, w, bias, out, outOffset, epilogue);
    }

    @Override
    public synchronized void project(Buffer x, int rows, Projection... ps) {
        if (rows == 0 || ps.length == 0) {
            return;
        }
        if (Arrays.stream(ps).anyMatch(p -> GpuMemory.anyBuf(p.out()).half())) {
            projectIntoHalf(x, rows, ps);
        } else if (!projection.project(x, rows, ps)) {
            Backend.super.project(x, rows, ps);
        }
    }

    /**
     * Outs in f16 (the window's cross values): projected into the f32 stage, then rounded into the out.
     * The first goes with the f32 outs (one split of x for all: the window's keys and values), any
     * further one alone.
     */
    private void projectIntoHalf(Buffer x, int rows, Projection[] ps) {
        Projection[] with = Arrays.stream(ps).filter(p -> !GpuMemory.anyBuf(p.out()).half()).toArray(Projection[]::new);
        for (Projection p : ps) {
            if (GpuMemory.anyBuf(p.out()).half()) {
                long count = rows * p.w().rows();
                Buffer stage = memory.halfStage(count);
                Projection[] run = Arrays.copyOf(with, with.length + 1);
                run[with.length] = new Projection(p.w(), p.bias(), stage);
                project(x, rows, run);
                memory.copy(stage, 0, p.out(), 0, count);
                with = new Projection[0];
            }
        }
    }

    /**
     * Tests: linear (x at offset 0) through the hilo entry {@code h} whatever {@link KernelChoice#hiloKernel} would
     * pick, at any shape; false (nothing launched) where that entry cannot run: no sm_80+ cubin of its
     * body, k % 8 != 0, or more shared memory than the device's opt-in maximum.
     */
    synchronized boolean linearHilo(KernelChoice.HiloKernel h, Buffer x, int rows, Weight w, Weight bias, Buffer out,
            Epilogue epilogue) {
        return projection.linearHilo(h, x, rows, w, bias, out, epilogue);
    }

    @Override
    public synchronized void normLinear(Buffer x, int rows, Weight gain, Weight lnBias, Buffer normed, Weight w,
            Weight bias, Buffer out, Epilogue epilogue) {
        if (!projection.normLinear(x, rows, gain, lnBias, w, bias, out, epilogue)) {
            Backend.super.normLinear(x, rows, gain, lnBias, normed, w, bias, out, epilogue);
        }
    }

    @Override
    public synchronized void projectStep(Buffer x, Weight gain, Weight lnBias, Buffer normed, Projection q,
            Projection k, Projection v, Buffer keys, Buffer values, long rowStride, Buffer step) {
        if (!projection.projectStep(x, gain, lnBias, q, k, v, keys, values, rowStride, step)) {
            Backend.super.projectStep(x, gain, lnBias, normed, q, k, v, keys, values, rowStride, step);
        }
    }

    /** Tests: the first {@code count} values of an f16 buffer, widened to f32 ({@link #download} takes f32 only). */
    synchronized float[] downloadHalf(Buffer b, int count) {
        return memory.downloadHalf(b, count);
    }

    /** Fused one-row ops on or off (tests compare the two; the default is on unless DICTUM_GPU_FUSION=0). */
    public synchronized void fuseSteps(boolean on) {
        projection.fuse = on;
    }

    @Override
    public synchronized void layerNorm(Buffer x, int rows, int cols, Weight gain, Weight bias, Buffer out) {
        layerNorm(x, rows, cols, gain, bias, out, LAYER_NORM_BLOCK);
    }

    /**
     * With a chosen block size (tests launch every multiple of the warp size up to
     * {@link LaunchGeometry#LAYER_NORM_MAX_BLOCK}): a warp per row, block / warpSize rows a block (ABI.md).
     */
    public synchronized void layerNorm(Buffer x, int rows, int cols, Weight gain, Weight bias, Buffer out,
            int block) {
        int warp = device.props().warpSize();
        if (block < warp || block > LAYER_NORM_MAX_BLOCK || block % warp != 0) {
            throw new IllegalArgumentException("layer norm block " + block + " is not a multiple of " + warp
                    + " in [" + warp + ", " + LAYER_NORM_MAX_BLOCK + "]");
        }
        if (rows == 0) {
            return;
        }
        checkRange(buf(x), 0, (long) rows * cols);
        checkRange(buf(out), 0, (long) rows * cols);
        kernels.kernel("layer_norm", "layer_norm_f32").launch(stream, layerNormGrid(rows, block, warp), 1, 1, block, 0,
                new KernelArgs().ptr(buf(x).at(0)).ptr(weight(gain).f16()).ptr(weight(bias).f16())
                        .ptr(buf(out).at(0)).i32(rows).i32(cols));
    }

    @Override
    public synchronized void conv1dGelu(Buffer in, boolean channelMajor, int inChannels, int inFrames, Weight w,
            Weight bias, int stride, Buffer out) {
        int outChannels = Math.toIntExact(w.rows());
        int outFrames = (inFrames + 2 - 3) / stride + 1;
        checkRange(buf(in), 0, (long) inChannels * inFrames);
        checkRange(buf(out), 0, (long) outChannels * outFrames);
        int t = gemmTile(kernels.module("conv1d_gelu").image());
        kernels.kernel("conv1d_gelu", "conv1d_gelu_f16").launch(stream, ceil(outChannels, t), ceil(outFrames, t), 1,
                BLOCK, 0, new KernelArgs().ptr(buf(in).at(0)).i32(channelMajor ? 1 : 0).i32(inChannels)
                        .i32(inFrames).ptr(weight(w).f16()).ptr(weight(bias).f16()).i32(stride)
                        .ptr(buf(out).at(0)).i32(outChannels).i32(outFrames));
    }

    @Override
    public synchronized void addRows(Buffer x, int rows, Weight table, int firstRow) {
        int cols = Math.toIntExact(table.cols());
        if (firstRow < 0 || firstRow + (long) rows > table.rows()) {
            throw new IllegalArgumentException("rows " + firstRow + ".." + (firstRow + rows) + " outside a table of "
                    + table.rows());
        }
        if (rows == 0) {
            return;
        }
        checkRange(buf(x), 0, (long) rows * cols);
        // (a q8_0 file keeps the positions in f32; were they q8_0, the weight scratch would hold them)
        long t = memory.dequantised(weight(table));
        memory.gridStride(kernels.kernel("add_rows", "add_rows_f16"), (long) rows * cols, new KernelArgs().ptr(buf(x).at(0))
                .i32(rows).i32(cols).ptr(t).i32(firstRow));
    }

    @Override
    public synchronized void embed(int[] tokens, int[] positions, int count, Weight tokenTable,
            Weight positionTable, Buffer out) {
        for (int i = 0; i < count; i++) {
            if (tokens[i] < 0 || tokens[i] >= tokenTable.rows()) {
                throw new IllegalArgumentException("token id " + tokens[i] + " outside the vocabulary");
            }
            if (positions[i] < 0 || positions[i] >= positionTable.rows()) {
                throw new IllegalArgumentException("position " + positions[i] + " beyond the text context "
                        + positionTable.rows());
            }
        }
        if (count == 0) {
            return;
        }
        int cols = Math.toIntExact(tokenTable.cols());
        checkRange(buf(out), 0, (long) count * cols);
        long t = memory.ints(tokens, count);
        long p = memory.ints(positions, count);
        GpuWeight table = weight(tokenTable);
        memory.gridStride(kernels.kernel("embed", embedKernel(table)), (long) count * cols, new KernelArgs().ptr(t).ptr(p)
                .i32(count).ptr(table.address()).ptr(weight(positionTable).f16()).ptr(buf(out).at(0)).i32(cols));
    }

    @Override
    public synchronized void attention(Buffer q, int qStride, int batch, int queries, Buffer k, Buffer v,
            long kvOffset, long kvBatchStride, int kvStride, int[] keys, int heads, int headDim, boolean causal,
            Buffer out) {
        if (RowAttention.half(k, v)) { // the decoder's f16 self K/V: the row kernel without a table
            selfKv.strided(q, qStride, batch, queries, k, v, kvOffset, kvBatchStride, kvStride, keys, heads, headDim,
                    causal, out);
            return;
        }
        if (batch == 0 || queries == 0) {
            return;
        }
        int shared = attentionShared(headDim, device.props().sharedMemoryPerBlock());
        RowAttention.checkKeys(batch, queries, keys, causal);
        long kd = buf(k).at(kvOffset);
        long vd = buf(v).at(kvOffset);
        long keysDev = memory.ints(keys, batch);
        int perBlock = attentionQueriesPerBlock(driver.api(), attentionModule, headDim);
        kernels.kernel(attentionModule, "attention_f32").launch(stream, ceil(queries, perBlock), heads, batch, ATTENTION_BLOCK, shared,
                new KernelArgs().ptr(buf(q).at(0)).i32(qStride).i32(batch).i32(queries).ptr(kd).ptr(vd)
                        .i64(kvBatchStride).i32(kvStride).ptr(keysDev).i32(heads).i32(headDim).i32(causal ? 1 : 0)
                        .ptr(buf(out).at(0)));
    }

    @Override
    public synchronized void attentionRows(Buffer q, int qStride, int batch, int queries, Buffer k, Buffer v,
            int kvStride, Buffer rows, int rowsStride, int[] keys, int heads, int headDim, boolean causal, Buffer out) {
        selfKv.rows(q, qStride, batch, queries, k, v, kvStride, rows, rowsStride, keys, heads, headDim, causal, out);
    }

    @Override
    public synchronized void crossAttention(Buffer q, int rows, Buffer keysT, int keysStride, Buffer values,
            int keys, int heads, int headDim, Buffer out) {
        crossKv.crossAttention(q, rows, keysT, keysStride, values, keys, heads, headDim, out);
    }

    @Override
    public synchronized void transpose(Buffer src, int rows, int cols, Buffer dst, int dstStride) {
        crossKv.transpose(src, rows, cols, dst, dstStride);
    }

    @Override
    public synchronized void embedStep(Buffer step, Weight tokenTable, Weight positionTable, Buffer out) {
        embedRowsStep(step, 0, 1, tokenTable, positionTable, out); // token step[0] at position step[1]: the same launch
    }

    @Override
    public synchronized void kvAppendStep(Buffer src, Buffer dst, long rowStride, Buffer step, int count) {
        selfKv.append(src, dst, rowStride, step, count);
    }

    @Override
    public synchronized void attentionStep(Buffer q, Buffer k, Buffer v, int kvStride, Buffer step, int heads,
            int headDim, Buffer out) {
        selfKv.step(q, k, v, kvStride, step, heads, headDim, out); // the row kernel: f32 or f16 caches
    }

    @Override
    public synchronized void embedRowsStep(Buffer step, int at, int count, Weight tokenTable, Weight positionTable,
            Buffer out) {
        int cols = Math.toIntExact(tokenTable.cols());
        checkRange(buf(step), at, 2L * count);
        checkRange(buf(out), 0, (long) count * cols);
        GpuWeight table = weight(tokenTable);
        memory.gridStride(kernels.kernel("embed", embedKernel(table)), (long) count * cols, new KernelArgs()
                .ptr(buf(step).at(at)).ptr(buf(step).at(at + count)).i32(count).ptr(table.address())
                .ptr(weight(positionTable).f16()).ptr(buf(out).at(0)).i32(cols));
    }

    /** embed_f16, or embed_q8_0 for a token table held as q8_0 blocks (a q8_0 file's; issue 22). */
    private static String embedKernel(GpuWeight tokenTable) {
        return tokenTable.q8_0() ? "embed_q8_0" : "embed_f16";
    }

    @Override
    public synchronized void attentionRowsStep(Buffer q, int batch, Buffer k, Buffer v, int kvStride, Buffer rows,
            int rowsStride, Buffer step, int at, int heads, int headDim, Buffer out) {
        checkRange(buf(step), at, batch);
        selfKv.rowsStep(q, heads * headDim, batch, 1, k, v, kvStride, rows, rowsStride, buf(step).at(at), heads,
                headDim, true, out);
    }

    @Override
    public synchronized StepGraph capture(Runnable step) {
        if (graphsRefused != null) {
            return null;
        }
        return GpuStepGraph.capture(driver, stream, this, step);
    }

    @Override
    public synchronized void refuseGraphs(String reason) {
        graphsRefused = reason;
    }

    @Override
    public synchronized boolean capturesSteps() {
        return graphsRefused == null;
    }

    /** Null while decoder steps run as graphs, else why not (doctor, logs, tests). */
    public synchronized String graphsRefused() {
        return graphsRefused;
    }

    /** {@code count} floats of {@code b} from {@code offset} set to {@code value} (the fill kernel). */
    public synchronized void fill(Buffer b, long offset, long count, float value) {
        memory.fill(b, offset, count, value);
    }

    @Override
    public synchronized void synchronize() {
        stream.synchronize();
        driver.checkLastError("synchronize");
    }

    /** Registers per thread of every packed kernel, as the runtime reports them (doctor). */
    public synchronized java.util.Map<String, Integer> kernelRegisters() {
        return kernels.registers(MODULES);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            stream.synchronize();
            driver.deviceSynchronize();
        } finally {
            turns.forEach(GpuLayerTurns::close);
            memory.close();
            kernels.close();
            stream.close();
        }
    }

    /**
     * The module {@code attention_f32} comes from: "attention", or in tests "attention_portable" (the AMD
     * body built for NVIDIA, so that the op tests check it on a CUDA device; manifest "testModules").
     */
    private String attentionModule = "attention";

    /**
     * Runs {@code body} with attention_f32 and gemm_f16 from the modules named (tests only; the runtime
     * never switches): "attention" / "gemm", or their portable test builds.
     */
    synchronized void withModules(String attention, String gemm, Runnable body) {
        String[] was = {attentionModule, projection.gemmModule};
        attentionModule = attention;
        projection.gemmModule = gemm;
        try {
            body.run();
        } finally {
            attentionModule = was[0];
            projection.gemmModule = was[1];
        }
    }
}
