package dev.dictum.gpu.backend;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.DType;
import dev.dictum.gpu.Epilogue;
import dev.dictum.gpu.HostTensor;
import dev.dictum.gpu.ModelTooLarge;
import dev.dictum.gpu.StepGraph;
import dev.dictum.gpu.Weight;
import dev.dictum.gpu.device.Device;
import dev.dictum.gpu.device.DeviceBuffer;
import dev.dictum.gpu.device.DeviceProps;
import dev.dictum.gpu.device.GpuDriver;
import dev.dictum.gpu.device.Kernel;
import dev.dictum.gpu.device.KernelArgs;
import dev.dictum.gpu.device.KernelCache;
import dev.dictum.gpu.device.KernelImages;
import dev.dictum.gpu.device.Stream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * {@link Backend} on a GPU through either driver (HIP or CUDA), launching the kernels of
 * native/src/kernels exactly as ABI.md (v1) has them. Weights are uploaded as the file stores
 * them and turned into f16 on the device (convert/dequant kernels); activations are f32; every
 * launch and copy goes on one stream; only {@link #download} and {@link #synchronize} wait.
 * Ops are serialised on this object (one stream, one staging ring), so any thread may call them.
 */
public final class GpuBackend implements Backend {
    /** Rows up to which a linear runs as GEMV (streams W once) rather than the tiled GEMM. */
    static final int GEMV_MAX_ROWS = 8;
    static final int BLOCK = 256;
    /**
     * GEMV block: 4 warps of 32 (2 waves of 64), so a 1280-column projection is 320 blocks and
     * spreads over an H100's 132 SMs within 3 blocks of each other (256 threads left 28 SMs with
     * twice the bytes of the rest).
     */
    static final int GEMV_BLOCK = 128;
    /** cross_attention_f32's block: chunks of ~100 keys keep 128 threads busy. */
    static final int CROSS_BLOCK = 128;
    static final int CROSS_SLOTS_PER_SM = 4;
    /** One partial: max, sum and headDim accumulators (heads up to 256 wide split; wider ones don't). */
    static final int CROSS_SLOT_FLOATS = 258;
    /**
     * layer_norm_f32's block: one warp per row, so 4 rows a block at warp 32 (2 at wave 64); 1500
     * encoder rows are 375 blocks, all resident at once on an H100 (128 registers a thread).
     */
    static final int LAYER_NORM_BLOCK = 128;
    /** layer_norm_f32's __launch_bounds__: the row held in registers must not spill. */
    static final int LAYER_NORM_MAX_BLOCK = 256;
    private static final int MAX_GRID = 65535;
    private static final Pattern GEMM_CUBIN = Pattern.compile("sm_(\\d+)/gemm\\.cubin");
    private static final long RING_DEVICE_BYTES = Staging.RING_BYTES;

    private final GpuDriver driver;
    private final Device device;
    private final Stream stream;
    private final KernelCache kernels;
    private final Staging staging;
    private final DeviceBuffer ringOnDevice;
    private final List<GpuWeight> weights = new ArrayList<>();
    private DeviceBuffer rawScratch;
    /** x's f16 hi/lo planes for gemm_f16_hilo (grown as needed; freed at close). */
    private DeviceBuffer hiloPlanes;
    private String gemmImage;
    /**
     * cross_attention_f32's per-chunk partials and per-(head, row) tickets: allocated once at a fixed
     * size and never moved, since a captured decoder-step graph holds their addresses.
     */
    private final DeviceBuffer crossPartials;
    private final DeviceBuffer crossTickets;
    private boolean closed;
    /**
     * Whether one-row ops take the one-row kernels: {@link #normLinear} and {@link #projectStep} fused
     * (one launch each), {@link #linear} as gemv1_f16 / gemv1_pipe_f16; DICTUM_GPU_FUSION=0 or {@link #fuseSteps} turns
     * it off (A/B runs, tests of the unfused path: layer_norm_f32, gemv_f16, gemv3_f16, kv_append_f32).
     */
    private boolean fuse = !"0".equals(System.getenv("DICTUM_GPU_FUSION"));
    /** Why {@link #capture} returns null, or null while graphs are used (DICTUM_CUDA_GRAPHS=0 turns them off). */
    private String graphsRefused;

    public GpuBackend(GpuDriver driver, int ordinal) {
        this.driver = driver;
        this.device = new Device(driver, ordinal);
        this.stream = device.newStream();
        this.kernels = new KernelCache(device, KernelImages.load());
        this.ringOnDevice = device.allocate(RING_DEVICE_BYTES);
        this.staging = new Staging(driver, stream, ringOnDevice);
        // Allocated here, not at the first cross-attention: no allocation may happen while a
        // decoder step is being captured, and a captured graph keeps these addresses.
        int slots = CROSS_SLOTS_PER_SM * device.props().multiprocessors();
        this.crossPartials = device.allocate(4L * slots * CROSS_SLOT_FLOATS);
        this.crossTickets = device.allocate(4L * slots);
        stream.fill32(crossTickets.address(), 0, slots); // each split launch leaves them at 0 again
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
            "add_rows", "embed", "attention", "cross_attention", "transpose", "fill", "kv_append");

    @Override
    public synchronized void checkFits(String what, long weightElements, long workingFloats) {
        long need = 2 * weightElements + 4 * workingFloats;
        long[] info = device.memoryInfo();
        // Keep a margin for the driver's own allocations and fragmentation.
        long usable = (long) (info[0] * 0.92);
        if (need > usable) {
            throw new ModelTooLarge(String.format(Locale.ROOT,
                    "%s needs about %.2f GiB on %s (f16 weights and working memory), but %.2f GiB of %.2f GiB"
                            + " are free", what, need / GIB, name(), info[0] / GIB, info[1] / GIB));
        }
    }

    private static final double GIB = 1L << 30;

    @Override
    public synchronized Weight upload(HostTensor t) {
        long n = t.elementCount();
        DeviceBuffer f16 = device.allocate(2 * n);
        try {
            switch (t.dtype()) {
                case F16 -> staging.toDevice(t.data(), f16.address());
                case F32, BF16 -> {
                    long raw = rawCopy(t);
                    launchGrid(kernel("convert", t.dtype() == DType.F32 ? "convert_f32_to_f16"
                            : "convert_bf16_to_f16"), n, new KernelArgs().ptr(raw).ptr(f16.address()).i64(n));
                }
                case Q8_0, Q5_0, Q5_1, Q4_0 -> {
                    long raw = rawCopy(t);
                    long blocks = n / 32;
                    launchGrid(kernel("dequant", "dequant_" + t.dtype().name().toLowerCase(Locale.ROOT) + "_f16"),
                            n, new KernelArgs().ptr(raw).ptr(f16.address()).i64(blocks));
                }
                case I8 -> {
                    long raw = rawCopy(t);
                    try (DeviceBuffer scales = device.allocate(t.rowScales().byteSize())) {
                        staging.toDevice(t.rowScales(), scales.address());
                        launchGrid(kernel("dequant", "dequant_i8_f16"), n, new KernelArgs().ptr(raw)
                                .ptr(scales.address()).ptr(f16.address()).i32(Math.toIntExact(t.rows()))
                                .i32(Math.toIntExact(t.cols())));
                        stream.synchronize();
                    }
                }
                default -> throw new IllegalArgumentException(t.describe() + ": no GPU upload for " + t.dtype());
            }
            // The raw scratch is reused by the next upload: this conversion must have read it.
            stream.synchronize();
        } catch (RuntimeException e) {
            f16.close();
            throw e;
        }
        GpuWeight w = new GpuWeight(t, f16);
        weights.add(w);
        return w;
    }

    /** Copies the tensor's bytes unchanged to the raw scratch (grown as needed), returns its address. */
    private long rawCopy(HostTensor t) {
        long bytes = t.data().byteSize();
        DeviceBuffer s = scratch(bytes);
        staging.toDevice(t.data(), s.address());
        return s.address();
    }

    private DeviceBuffer scratch(long bytes) {
        if (rawScratch == null || rawScratch.bytes() < bytes) {
            if (rawScratch != null) {
                stream.synchronize();
                rawScratch.close();
                rawScratch = null;
            }
            rawScratch = device.allocate(bytes);
        }
        return rawScratch;
    }

    @Override
    public synchronized Buffer allocate(long floats) {
        DeviceBuffer m = device.allocate(4 * floats);
        if (floats > 0) {
            stream.fill32(m.address(), 0, floats);
        }
        return new GpuBuffer(m, floats);
    }

    @Override
    public synchronized void upload(float[] src, int srcOffset, Buffer dst, long dstOffset, int count) {
        GpuBuffer d = buf(dst);
        checkRange(d, dstOffset, count);
        staging.toDevice(src, srcOffset, d.at(dstOffset), count);
    }

    @Override
    public synchronized void download(Buffer src, long srcOffset, float[] dst, int dstOffset, int count) {
        GpuBuffer s = buf(src);
        checkRange(s, srcOffset, count);
        staging.toHost(s.at(srcOffset), dst, dstOffset, count);
    }

    @Override
    public synchronized void copy(Buffer src, long srcOffset, Buffer dst, long dstOffset, long count) {
        GpuBuffer s = buf(src);
        GpuBuffer d = buf(dst);
        checkRange(s, srcOffset, count);
        checkRange(d, dstOffset, count);
        if (count > 0) {
            stream.copyOnDevice(d.at(dstOffset), s.at(srcOffset), 4 * count);
        }
    }

    @Override
    public synchronized void linear(Buffer x, long xOffset, int rows, Weight w, Weight bias, Buffer out,
            long outOffset, Epilogue epilogue) {
        int n = Math.toIntExact(w.rows());
        int k = Math.toIntExact(w.cols());
        if (rows == 0) {
            return;
        }
        checkRange(buf(x), xOffset, (long) rows * k);
        checkRange(buf(out), outOffset, (long) rows * n);
        KernelArgs a = new KernelArgs().ptr(buf(x).at(xOffset)).ptr(weight(w).address())
                .ptr(bias == null ? 0 : weight(bias).address()).ptr(buf(out).at(outOffset)).i32(rows).i32(n).i32(k)
                .i32(epilogueCode(epilogue));
        if (rows == 1 && fuse && oneRowGemvHasFewerRegisters()) { // gemv_f16's one-row pass: the same bits
            KernelArgs one = new KernelArgs().ptr(buf(x).at(xOffset)).ptr(weight(w).address())
                    .ptr(bias == null ? 0 : weight(bias).address()).ptr(buf(out).at(outOffset)).i32(n).i32(k)
                    .i32(epilogueCode(epilogue));
            int warp = device.props().warpSize();
            if (pipelined(n, k, warp, buf(x).at(xOffset), weight(w).address())) {
                kernel("gemv", "gemv1_pipe_f16").launch(stream, PIPE_BLOCKS_PER_SM * device.props().multiprocessors(),
                        1, 1, GEMV_BLOCK, 0, one);
            } else {
                kernel("gemv", "gemv1_f16").launch(stream, gemvGrid(n, k, warp), 1, 1, GEMV_BLOCK, 0, one);
            }
        } else if (rows <= GEMV_MAX_ROWS) {
            int warp = device.props().warpSize();
            kernel("gemv", "gemv_f16").launch(stream, gemvGrid(n, k, warp), 1, 1, GEMV_BLOCK, 0, a);
        } else if (hiloFits(rows, w)) {
            // x as f16 hi/lo planes once (split_f32_hilo), then the 128 x 128 tile on them
            long hi = splitHilo(buf(x).at(xOffset), (long) rows * k);
            gemmHilo(hi, rows, w, bias, buf(out).at(outOffset), n, k, epilogue);
        } else {
            int t = gemmTile(kernels.module(gemmModule).image());
            kernel(gemmModule, "gemm_f16").launch(stream, ceil(n, t), ceil(rows, t), 1, BLOCK, 0, a);
        }
    }

    /**
     * A decoded token's (or a few beams') projections in one gemv3_f16 launch when they share n and k
     * (three at most); the encoder's with x split into f16 hi/lo planes once for all of them; else one
     * by one.
     */
    @Override
    public synchronized void project(Buffer x, int rows, Projection... ps) {
        if (rows == 0 || ps.length == 0) {
            return;
        }
        int n = Math.toIntExact(ps[0].w().rows());
        int k = Math.toIntExact(ps[0].w().cols());
        boolean same = true;
        for (Projection p : ps) {
            same &= p.w().rows() == n && p.w().cols() == k;
            checkRange(buf(p.out()), 0, (long) rows * p.w().rows());
        }
        checkRange(buf(x), 0, (long) rows * k);
        if (same && rows <= GEMV_MAX_ROWS && ps.length <= 3) {
            KernelArgs a = new KernelArgs().ptr(buf(x).at(0));
            for (int i = 0; i < 3; i++) {
                Projection p = ps[Math.min(i, ps.length - 1)]; // unused slots repeat the last (never read)
                a.ptr(weight(p.w()).address()).ptr(p.bias() == null ? 0 : weight(p.bias()).address())
                        .ptr(buf(p.out()).at(0));
            }
            a.i32(rows).i32(n).i32(k);
            kernel("gemv", "gemv3_f16").launch(stream, gemvGrid(n, k, device.props().warpSize()), ps.length, 1,
                    GEMV_BLOCK, 0, a);
            return;
        }
        boolean split = same && rows > GEMV_MAX_ROWS;
        for (Projection p : ps) {
            split &= hiloFits(rows, p.w());
        }
        if (!split) {
            Backend.super.project(x, rows, ps);
            return;
        }
        long hi = splitHilo(buf(x).at(0), (long) rows * k);
        for (Projection p : ps) {
            gemmHilo(hi, rows, p.w(), p.bias(), buf(p.out()).at(0), n, k, Epilogue.NONE);
        }
    }

    /**
     * Tests: linear (x at offset 0) through the hilo entry {@code h} whatever {@link #hiloKernel} would
     * pick, at any shape; false (nothing launched) where that entry cannot run: no sm_80+ cubin of its
     * body, k % 8 != 0, or more shared memory than the device's opt-in maximum.
     */
    synchronized boolean linearHilo(HiloKernel h, Buffer x, int rows, Weight w, Weight bias, Buffer out,
            Epilogue epilogue) {
        int n = Math.toIntExact(w.rows());
        int k = Math.toIntExact(w.cols());
        if (!hiloBody(gemmImage()) || k % 8 != 0 || weight(w).address() % 16 != 0
                || h.sharedBytes() > device.props().sharedMemoryPerBlockOptin()) {
            return false;
        }
        checkRange(buf(x), 0, (long) rows * k);
        checkRange(buf(out), 0, (long) rows * n);
        long hi = splitHilo(buf(x).at(0), (long) rows * k);
        gemmHilo(h, hi, rows, w, bias, buf(out).at(0), n, k, epilogue);
        return true;
    }

    /**
     * One row: the layer norm in gemv1_ln_f16's prologue (every block normalises x into its shared memory)
     * where {@link #normLinearFused} allows (tiny's and small's short GEMVs); else layer_norm_f32 + linear.
     */
    @Override
    public synchronized void normLinear(Buffer x, int rows, Weight gain, Weight lnBias, Buffer normed, Weight w,
            Weight bias, Buffer out, Epilogue epilogue) {
        int n = Math.toIntExact(w.rows());
        int k = Math.toIntExact(w.cols());
        if (!fuse || rows != 1 || !normLinearFused(n, k, device.props().sharedMemoryPerBlock())) {
            Backend.super.normLinear(x, rows, gain, lnBias, normed, w, bias, out, epilogue);
            return;
        }
        checkRange(buf(x), 0, k);
        checkRange(buf(out), 0, n);
        int grid = gemvGrid(n, k, device.props().warpSize());
        kernel("gemv", "gemv1_ln_f16").launch(stream, grid, 1, 1, GEMV_BLOCK, lnShared(k),
                new KernelArgs().ptr(buf(x).at(0)).ptr(weight(gain).address()).ptr(weight(lnBias).address())
                        .ptr(weight(w).address()).ptr(bias == null ? 0 : weight(bias).address()).ptr(buf(out).at(0))
                        .i32(n).i32(k).i32(epilogueCode(epilogue)));
    }

    /**
     * One launch of gemv3_1_f16: the layer norm in its prologue, Q/K/V as blockIdx.y, K and V stored
     * straight into the caches' row step[1]; else the default (layer norm, project, two appends).
     */
    @Override
    public synchronized void projectStep(Buffer x, Weight gain, Weight lnBias, Buffer normed, Projection q,
            Projection k, Projection v, Buffer keys, Buffer values, long rowStride, Buffer step) {
        int n = Math.toIntExact(q.w().rows());
        int cols = Math.toIntExact(q.w().cols());
        boolean same = k.w().rows() == n && v.w().rows() == n && k.w().cols() == cols && v.w().cols() == cols;
        if (!fuse || !same || !normFused(3L * n, cols, device.props().sharedMemoryPerBlock())) {
            Backend.super.projectStep(x, gain, lnBias, normed, q, k, v, keys, values, rowStride, step);
            return;
        }
        checkRange(buf(x), 0, cols);
        checkRange(buf(q.out()), 0, n);
        checkRange(buf(step), 0, 3);
        checkRange(buf(keys), 0, n); // row step[1] is read on the device: the caller keeps it in range
        checkRange(buf(values), 0, n);
        KernelArgs a = new KernelArgs().ptr(buf(x).at(0)).ptr(weight(gain).address()).ptr(weight(lnBias).address());
        for (Projection p : new Projection[] {q, k, v}) {
            Buffer o = p == q ? q.out() : p == k ? keys : values;
            a.ptr(weight(p.w()).address()).ptr(p.bias() == null ? 0 : weight(p.bias()).address()).ptr(buf(o).at(0));
        }
        a.i32(n).i32(cols).ptr(buf(step).at(0)).i64(rowStride);
        kernel("gemv", "gemv3_1_f16").launch(stream, gemvGrid(n, cols, device.props().warpSize()), 3, 1, GEMV_BLOCK,
                lnShared(cols), a);
    }

    /**
     * Whether a one-row GEMV runs as gemv1_pipe_f16 on a grid of {@link #PIPE_BLOCKS_PER_SM} blocks per
     * SM: many columns (the logits; H100, kernel_bench: 51866 × 1280 in 49.6 µs instead of gemv1_f16's
     * 53.3 and gemv_f16's 90.6, 51865 × 384 in 22.5 instead of 40.0 and 54.4), rows of one batch of
     * 16-byte loads per lane and one warp per column (the kernel's fast path, gemv_f16's sum order:
     * the same bits), 16-byte aligned.
     */
    static boolean pipelined(int n, int k, int warp, long x, long w) {
        return n >= PIPE_MIN_COLUMNS && k % 8 == 0 && k / 8 <= 8 * warp && gemvSplit(k, GEMV_BLOCK / warp, warp) == 1
                && x % 16 == 0 && w % 16 == 0;
    }

    static final int PIPE_MIN_COLUMNS = 16384;
    /** 4 blocks of 128 per SM: all resident at gemv1_pipe_f16's 102 registers (sm_90), the best measured. */
    static final int PIPE_BLOCKS_PER_SM = 4;

    /**
     * gemv1_f16 holds fewer registers than gemv_f16 under nvcc (sm_90: 95 vs 116, so 5 blocks of 128 per
     * SM instead of 4), more under hipcc for gfx1010 (114 vs 94 VGPRs: 8 waves per SIMD instead of 10):
     * a one-row linear takes it on CUDA only.
     */
    private boolean oneRowGemvHasFewerRegisters() {
        return driver.api().equals("cuda");
    }

    /**
     * Whether a one-row GEMV of {@code columns} outputs (all projections together) over rows of
     * {@code k} may take its layer norm in the prologue: the row fits the block's shared memory (8·k
     * bytes, at most 32 KiB, under the 48 KiB any launch may take without an opt-in) and there are few
     * enough blocks that normalising the row in each costs less than the layer norm's own launch: not
     * the 51866 logits (12967 blocks). gemv3_1_f16 (projectStep) is fused wherever this holds: it also
     * drops the two appends (H100, kernel_bench graphs: d 1280 12.9 → 12.8 µs, 768 10.7 → 9.4, 384 8.6 →
     * 4.8); a single GEMV only where {@link #normLinearFused} also holds.
     */
    static boolean normFused(long columns, int k, int sharedPerBlock) {
        return k >= 1 && (long) lnShared(k) <= Math.min(NORM_FUSED_MAX_SHARED, sharedPerBlock - 1024L)
                && columns <= NORM_FUSED_MAX_COLUMNS;
    }

    /** Dynamic shared memory of gemv1_ln_f16 / gemv3_1_f16: the row (k floats) and its gain and bias (k half2). */
    static int lnShared(int k) {
        return Math.toIntExact(8L * k);
    }

    /**
     * normLinear fused (gemv1_ln_f16) for small weights only: each block's prologue costs ~4 µs at k 1280
     * (two round trips to L2 and two block reductions before the first FMA) and is paid once per wave of
     * blocks, so it beats layer_norm_f32 + GEMV only while the GEMV is short. H100, kernel_bench graphs,
     * LN + GEMV → fused: 384 × 384 5.7 → 4.3 µs, 1536 × 384 6.0 → 4.8, 768 × 768 6.2 → 5.7, but 1280 × 1280
     * 7.6 → 7.9, 3072 × 768 8.5 → 9.9, 5120 × 1280 12.5 → 13.6: fused up to n·k = 2^20 weights.
     */
    static boolean normLinearFused(int n, int k, int sharedPerBlock) {
        return normFused(n, k, sharedPerBlock) && (long) n * k <= NORM_LINEAR_FUSED_MAX_WEIGHTS;
    }

    static final long NORM_LINEAR_FUSED_MAX_WEIGHTS = 1L << 20;

    /** Fused one-row ops on or off (tests compare the two; the default is on unless DICTUM_GPU_FUSION=0). */
    public synchronized void fuseSteps(boolean on) {
        fuse = on;
    }

    static final int NORM_FUSED_MAX_SHARED = 32 * 1024;
    static final long NORM_FUSED_MAX_COLUMNS = 16384;

    /** Whether linear(rows, w) runs as split_f32_hilo + gemm_f16_hilo (see {@link #wideTile}). */
    private boolean hiloFits(int rows, Weight w) {
        return gemmModule.equals("gemm") && w.cols() % 8 == 0 && weight(w).address() % 16 == 0
                && wideTile(gemmImage(), rows, Math.toIntExact(w.rows()), Math.toIntExact(w.cols()),
                        device.props().multiprocessors());
    }

    /** The gemm module's image ("sm_90/gemm.cubin", …): looked up once, it never changes. */
    private String gemmImage() {
        if (gemmImage == null) {
            gemmImage = kernels.module("gemm").image();
        }
        return gemmImage;
    }

    /** x's hi/lo planes (rows · k halves each, lo after hi); returns hi's address. */
    private long splitHilo(long x, long count) {
        DeviceBuffer planes = hiloPlanes(4 * count);
        long hi = planes.address();
        // a thread per 4 elements (one 16-byte load of x: ABI.md)
        launchGrid(kernel("gemm", "split_f32_hilo"), (count + 3) / 4,
                new KernelArgs().ptr(x).ptr(hi).ptr(hi + 2 * count).i64(count));
        return hi;
    }

    private void gemmHilo(long hi, int rows, Weight w, Weight bias, long out, int n, int k, Epilogue epilogue) {
        gemmHilo(hiloKernel(rows, n, device.props().multiprocessors(), device.props().sharedMemoryPerBlockOptin()),
                hi, rows, w, bias, out, n, k, epilogue);
    }

    private void gemmHilo(HiloKernel h, long hi, int rows, Weight w, Weight bias, long out, int n, int k,
            Epilogue epilogue) {
        long lo = hi + 2L * rows * k;
        kernel("gemm", h.name()).launch(stream, ceil(n, h.tileCols()), ceil(rows, h.tileRows()), 1, BLOCK,
                h.sharedBytes(), new KernelArgs().ptr(hi).ptr(lo).ptr(weight(w).address())
                        .ptr(bias == null ? 0 : weight(bias).address()).ptr(out).i32(rows).i32(n).i32(k)
                        .i32(epilogueCode(epilogue)));
    }

    private static int epilogueCode(Epilogue e) {
        return switch (e) {
            case NONE -> 0;
            case GELU -> 1;
            case ADD -> 2;
        };
    }

    /** gemm_f16_hilo's input planes: one buffer, grown to the largest {@code rows · k} seen. */
    private DeviceBuffer hiloPlanes(long bytes) {
        if (hiloPlanes == null || hiloPlanes.bytes() < bytes) {
            if (hiloPlanes != null) {
                stream.synchronize(); // a GEMM queued on the old planes may still read them
                hiloPlanes.close();
                hiloPlanes = null;
            }
            hiloPlanes = device.allocate(bytes);
        }
        return hiloPlanes;
    }

    /**
     * One entry of the hilo GEMM (gemm.cu, ABI.md) and its launch: a {@code tileRows × tileCols} tile per
     * block of 256 threads, {@code sharedBytes} of dynamic shared memory (0: the entry's own 48 KiB of
     * static shared memory).
     */
    record HiloKernel(String name, int tileRows, int tileCols, int sharedBytes) {
    }

    /** The 2-stage body, one block per SM (gemm_hilo.cuh). */
    static final HiloKernel HILO = new HiloKernel("gemm_f16_hilo", 128, 128, 0);
    /** The same, two blocks per SM (128 registers). */
    static final HiloKernel HILO_2BLK = new HiloKernel("gemm_f16_hilo_2blk", 128, 128, 0);
    /**
     * gemm_hilo_pipe.cuh's 128 × 128 tile with 4 stages of two 32-wide k-slices in dynamic shared memory:
     * 192 KiB, one block per SM, above the 48 KiB default ({@link dev.dictum.gpu.device.Kernel#launch}
     * opts in).
     */
    static final HiloKernel HILO_PIPE = new HiloKernel("gemm_f16_hilo_pipe", 128, 128, 4 * 2 * (2 * 128 + 128) * 64);

    /**
     * Whether the device takes {@link #HILO_PIPE}: its opt-in shared memory per block holds it (sm_90's
     * 227 KiB; not sm_80's 163 KiB, sm_86 / sm_89's 99 KiB nor sm_75's 64 KiB, which keep the 2-stage
     * entries).
     */
    static boolean hiloPipe(int sharedOptin) {
        return sharedOptin >= HILO_PIPE.sharedBytes();
    }

    /**
     * The hilo GEMM entry for {@code rows × n} outputs (where {@link #wideTile} holds), as measured
     * (kernel_bench on an H100, 2026-11-26 22:18, split included): with at least two 128 × 128 tiles per
     * SM gemm_f16_hilo_2blk (large-v3's MLP up 1500 × 5120: 0.153 ms, every deeper pipeline 0.178 and
     * more); else, where {@link #hiloPipe}, gemm_f16_hilo_pipe (1500 × 1280 × 1280 / 3840 / 5120: 0.047 /
     * 0.124 / 0.179 ms against gemm_f16_hilo's 0.056 / 0.147 / 0.240); else gemm_f16_hilo.
     */
    static HiloKernel hiloKernel(int rows, int n, int multiprocessors, int sharedOptin) {
        if (hiloTwoPerSm(rows, n, multiprocessors)) {
            return HILO_2BLK;
        }
        return hiloPipe(sharedOptin) ? HILO_PIPE : HILO;
    }

    /** gemm_f16_hilo_2blk (two blocks per SM) when there are at least two 128 × 128 tiles per SM. */
    static boolean hiloTwoPerSm(int rows, int n, int multiprocessors) {
        return (long) ceil(rows, 128) * ceil(n, 128) >= 2L * multiprocessors;
    }

    /**
     * Whether a GEMM of {@code rows × n} outputs over {@code k} inputs runs as split_f32_hilo + a hilo
     * entry ({@link #hiloKernel}): only where the entries' own bodies are the ones loaded (a cubin for
     * sm_80 or newer; on the compute_75 PTX and on AMD an entry is 64 × 64 tiles of the portable body, so
     * gemm_f16's four times as many blocks are better), only when its 128 × 128 tiles fill at least 3/4 of
     * the SMs (the large encoders' GEMMs: 1500 × 1280 is 120 tiles on an H100's 132 SMs; every MLP up),
     * and only for k ≥ 512, where the split pays: measured on an H100, tiny's MLP up (1500 × 1536 × 384)
     * is 0.036 ms on gemm_f16 against 0.038 to 0.048 on every hilo entry, small's (1500 × 3072 × 768)
     * 0.087 on gemm_f16_hilo_2blk against 0.094. Smaller shapes (tiny's and small's d_model outputs,
     * prompts) keep gemm_f16's 64 × 64 tile (1500 × 768 × 768: 0.033 ms, no hilo entry faster).
     */
    static boolean wideTile(String gemmImage, int rows, int n, int k, int multiprocessors) {
        return hiloBody(gemmImage) && k >= HILO_MIN_K && 4L * ceil(rows, 128) * ceil(n, 128) >= 3L * multiprocessors;
    }

    /** The least k for which the split into hi/lo planes pays (see {@link #wideTile}). */
    static final int HILO_MIN_K = 512;

    /** Whether the gemm image holds the hilo entries' own bodies: a cubin for sm_80 or newer. */
    static boolean hiloBody(String gemmImage) {
        var cubin = GEMM_CUBIN.matcher(gemmImage);
        return cubin.matches() && Integer.parseInt(cubin.group(1)) >= 80;
    }

    /**
     * Warps that share one output column of gemv_f16 for rows of {@code k} halves: as the kernel's
     * dg_gemv_split (gemv.cu), the largest power of two within the block whose slices keep ≥ 4
     * loads of 16 bytes per lane.
     */
    static int gemvSplit(int k, int warps, int warp) {
        int s = 1;
        while (s * 2 <= warps && (k / 8) / (s * 2) >= 4 * warp) {
            s *= 2;
        }
        return s;
    }

    /** Blocks of {@link #GEMV_BLOCK} threads that cover {@code n} columns in one pass (capped). */
    static int gemvGrid(int n, int k, int warp) {
        int warps = GEMV_BLOCK / warp;
        return Math.min(ceil(n, warps / gemvSplit(k, warps, warp)), MAX_GRID);
    }

    /** layer_norm_f32's grid: a warp per row, block / warp rows a block (grid-stride past the cap). */
    static int layerNormGrid(int rows, int block, int warp) {
        return Math.min(ceil(rows, block / warp), MAX_GRID);
    }

    @Override
    public synchronized void layerNorm(Buffer x, int rows, int cols, Weight gain, Weight bias, Buffer out) {
        layerNorm(x, rows, cols, gain, bias, out, LAYER_NORM_BLOCK);
    }

    /**
     * With a chosen block size (tests launch every multiple of the warp size up to
     * {@link #LAYER_NORM_MAX_BLOCK}): a warp per row, block / warpSize rows a block (ABI.md).
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
        kernel("layer_norm", "layer_norm_f32").launch(stream, layerNormGrid(rows, block, warp), 1, 1, block, 0,
                new KernelArgs().ptr(buf(x).at(0)).ptr(weight(gain).address()).ptr(weight(bias).address())
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
        kernel("conv1d_gelu", "conv1d_gelu_f16").launch(stream, ceil(outChannels, t), ceil(outFrames, t), 1,
                BLOCK, 0, new KernelArgs().ptr(buf(in).at(0)).i32(channelMajor ? 1 : 0).i32(inChannels)
                        .i32(inFrames).ptr(weight(w).address()).ptr(weight(bias).address()).i32(stride)
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
        launchGrid(kernel("add_rows", "add_rows_f16"), (long) rows * cols, new KernelArgs().ptr(buf(x).at(0))
                .i32(rows).i32(cols).ptr(weight(table).address()).i32(firstRow));
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
        long t = staging.ints(tokens, count);
        long p = staging.ints(positions, count);
        launchGrid(kernel("embed", "embed_f16"), (long) count * cols, new KernelArgs().ptr(t).ptr(p).i32(count)
                .ptr(weight(tokenTable).address()).ptr(weight(positionTable).address()).ptr(buf(out).at(0))
                .i32(cols));
    }

    @Override
    public synchronized void attention(Buffer q, int qStride, int batch, int queries, Buffer k, Buffer v,
            long kvOffset, long kvBatchStride, int kvStride, int[] keys, int heads, int headDim, boolean causal,
            Buffer out) {
        if (batch == 0 || queries == 0) {
            return;
        }
        int shared = attentionShared(headDim);
        for (int b = 0; b < batch; b++) {
            if (keys[b] < 1 || causal && keys[b] < queries) {
                throw new IllegalArgumentException("sequence " + b + " has " + keys[b] + " keys for " + queries
                        + " queries");
            }
        }
        long kd = buf(k).at(kvOffset);
        long vd = buf(v).at(kvOffset);
        long keysDev = staging.ints(keys, batch);
        int perBlock = attentionQueriesPerBlock(driver.api(), attentionModule, headDim);
        kernel(attentionModule, "attention_f32").launch(stream, ceil(queries, perBlock), heads, batch, 128, shared,
                new KernelArgs().ptr(buf(q).at(0)).i32(qStride).i32(batch).i32(queries).ptr(kd).ptr(vd)
                        .i64(kvBatchStride).i32(kvStride).ptr(keysDev).i32(heads).i32(headDim).i32(causal ? 1 : 0)
                        .ptr(buf(out).at(0)));
    }

    @Override
    public synchronized void crossAttention(Buffer q, int rows, Buffer keysT, int keysStride, Buffer values,
            int keys, int heads, int headDim, Buffer out) {
        if (rows == 0) {
            return;
        }
        int warp = device.props().warpSize();
        int chunks = crossChunks(rows, keys, heads, headDim, device.props().multiprocessors());
        int chunk = ceil(keys, chunks);
        int block = Math.max(CROSS_BLOCK, ceil(headDim, warp) * warp);
        // Every Whisper's heads are 64 wide: that entry keeps a key's 64 channels in flight and sums
        // P·V in float4 groups, whose partials take 4 × block floats instead of block.
        boolean hd64 = headDim == 64 && block <= 256;
        int shared = 4 * (chunk + headDim + 64 + (hd64 ? 4 : 1) * block);
        if (shared > 48 * 1024) {
            throw new IllegalArgumentException("cross-attention over " + keys + " keys needs " + shared
                    + " bytes of shared memory (48 KiB at most)");
        }
        kernel("cross_attention", hd64 ? "cross_attention_f32_hd64" : "cross_attention_f32").launch(stream, heads,
                rows, chunks, block, shared,
                new KernelArgs().ptr(buf(q).at(0)).i32(rows).ptr(buf(keysT).at(0)).i32(keysStride)
                        .ptr(buf(values).at(0)).i32(keys).i32(heads).i32(headDim).ptr(buf(out).at(0))
                        .ptr(crossPartials.address()).ptr(crossTickets.address()));
    }

    /**
     * Blocks per (head, row) of cross_attention_f32: enough that a decoded token's few (head, row)
     * pairs fill the GPU about twice (a large-v3 token: 20 pairs, 14 chunks of 108 keys on 132 SMs),
     * chunks of at least 64 keys; one chunk (no partials) once the pairs alone fill it twice or a
     * head is wider than a partial slot. The partials then always fit the fixed
     * {@code CROSS_SLOTS_PER_SM × SMs} slots: pairs × ceil(2·SMs / pairs) < 2·SMs + pairs < 4·SMs.
     */
    static int crossChunks(int rows, int keys, int heads, int headDim, int multiprocessors) {
        long pairs = (long) rows * heads;
        long fill = 2L * multiprocessors;
        if (pairs >= fill || headDim + 2 > CROSS_SLOT_FLOATS) {
            return 1;
        }
        return (int) Math.max(1, Math.min((fill + pairs - 1) / pairs, ceil(keys, 64)));
    }

    @Override
    public synchronized void transpose(Buffer src, int rows, int cols, Buffer dst, int dstStride) {
        if (rows == 0 || cols == 0) {
            return;
        }
        checkRange(buf(src), 0, (long) rows * cols);
        checkRange(buf(dst), 0, (long) (cols - 1) * dstStride + rows);
        kernel("transpose", "transpose_f32").launch(stream, ceil(cols, 32), Math.min(ceil(rows, 32), MAX_GRID), 1,
                BLOCK, 0, new KernelArgs().ptr(buf(src).at(0)).i32(rows).i32(cols).ptr(buf(dst).at(0))
                        .i32(dstStride));
    }

    @Override
    public synchronized void embedStep(Buffer step, Weight tokenTable, Weight positionTable, Buffer out) {
        int cols = Math.toIntExact(tokenTable.cols());
        checkRange(buf(step), 0, 3);
        checkRange(buf(out), 0, cols);
        launchGrid(kernel("embed", "embed_f16"), cols, new KernelArgs().ptr(buf(step).at(0)).ptr(buf(step).at(1))
                .i32(1).ptr(weight(tokenTable).address()).ptr(weight(positionTable).address()).ptr(buf(out).at(0))
                .i32(cols));
    }

    @Override
    public synchronized void kvAppendStep(Buffer src, Buffer dst, long rowStride, Buffer step, int count) {
        checkRange(buf(step), 0, 3);
        checkRange(buf(src), 0, count);
        launchGrid(kernel("kv_append", "kv_append_f32"), count, new KernelArgs().ptr(buf(src).at(0))
                .ptr(buf(dst).at(0)).ptr(buf(step).at(0)).i64(rowStride).i32(count));
    }

    @Override
    public synchronized void attentionStep(Buffer q, Buffer k, Buffer v, int kvStride, Buffer step, int heads,
            int headDim, Buffer out) {
        int shared = attentionShared(headDim);
        checkRange(buf(step), 0, 3);
        kernel(attentionModule, "attention_f32").launch(stream, 1, heads, 1, 128, shared,
                new KernelArgs().ptr(buf(q).at(0)).i32(kvStride).i32(1).i32(1).ptr(buf(k).at(0)).ptr(buf(v).at(0))
                        .i64(0).i32(kvStride).ptr(buf(step).at(2)).i32(heads).i32(headDim).i32(1)
                        .ptr(buf(out).at(0)));
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
        checkRange(buf(b), offset, count);
        if (count > 0) {
            launchGrid(kernel("fill", "fill_f32"), count, new KernelArgs().ptr(buf(b).at(offset)).f32(value)
                    .i64(count));
        }
    }

    @Override
    public synchronized void synchronize() {
        stream.synchronize();
        driver.checkLastError("synchronize");
    }

    /** Registers per thread of every packed kernel, as the runtime reports them (doctor). */
    public synchronized java.util.Map<String, Integer> kernelRegisters() {
        java.util.Map<String, Integer> out = new java.util.TreeMap<>();
        KernelImages images = KernelImages.load();
        for (String m : MODULES) {
            for (String k : images.kernelsOf(m)) {
                out.put(k, kernel(m, k).registers());
            }
        }
        return out;
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
            weights.forEach(w -> w.f16.close());
            weights.clear();
            if (rawScratch != null) {
                rawScratch.close();
            }
            if (hiloPlanes != null) {
                hiloPlanes.close();
            }
            crossPartials.close();
            crossTickets.close();
            staging.close();
            ringOnDevice.close();
            kernels.close();
            stream.close();
        }
    }

    /**
     * The module {@code attention_f32} comes from: "attention", or in tests "attention_portable" (the AMD
     * body built for NVIDIA, so that the op tests check it on a CUDA device; manifest "testModules").
     */
    private String attentionModule = "attention";

    /** Runs {@code body} with attention from {@code module} (tests only; the runtime never switches). */
    synchronized void withAttentionModule(String module, Runnable body) {
        String was = attentionModule;
        attentionModule = module;
        try {
            body.run();
        } finally {
            attentionModule = was;
        }
    }

    /** The module gemm_f16 comes from: "gemm", or in tests "gemm_portable" (as attentionModule). */
    private String gemmModule = "gemm";

    /** Runs {@code body} with gemm_f16 from {@code module} and no hilo entry (tests only). */
    synchronized void withGemmModule(String module, Runnable body) {
        String was = gemmModule;
        gemmModule = module;
        try {
            body.run();
        } finally {
            gemmModule = was;
        }
    }

    /**
     * The tile side of gemm_f16 and conv1d_gelu_f16 in {@code image} (DG_GEMM_F16_TILE, ABI.md): 128 for
     * the portable body (gemm_tile_portable_8x8.cuh: every AMD code object, the test-only modules
     * gemm_portable and conv1d_gelu_portable), 64 for the NVIDIA bodies.
     */
    static int gemmTile(String image) {
        return image.endsWith(".hsaco") || image.contains("_portable.") ? 128 : 64;
    }

    /**
     * Queries per block of attention_f32 (ABI.md): the NVIDIA body takes 64 at head sizes up to 64 (its
     * sm_80+ path stages each K/V tile once for 64 queries; any grid is correct for it, as it divides
     * the queries by gridDim.x), the portable body (AMD, the HIP stand-in, attention_portable) exactly 32.
     */
    static int attentionQueriesPerBlock(String api, String module, int headDim) {
        boolean tensorCoreBody = api.equals("cuda") && module.equals("attention");
        return tensorCoreBody && headDim <= 64 ? 64 : 32;
    }

    private int attentionShared(int headDim) {
        if (headDim < 1 || headDim > 128) {
            throw new IllegalArgumentException("attention head size " + headDim + " outside 1..128");
        }
        // What either body of attention.cu uses (ABI.md): the NVIDIA tensor-core body's f16 hi/lo staging
        // and merge area, or the portable (AMD) body's K and V tiles of 32 keys x 64 or 128 channels.
        int tensorCore = 4 * (80 * ((headDim + 7) & ~7) + 256);
        // The sm_80+ body (head size <= 64): K and V of 32 keys as hi/lo halves, rows of roundUp(hd, 16) + 8.
        int tensorCore64 = headDim <= 64 ? 2 * 4 * 32 * (((headDim + 15) & ~15) + 8) : 0;
        int portable = 4 * 2 * 32 * (headDim <= 64 ? 64 : 128);
        int shared = Math.max(Math.max(tensorCore, tensorCore64), portable);
        if (shared > device.props().sharedMemoryPerBlock()) {
            throw new IllegalArgumentException("attention with head size " + headDim + " needs " + shared
                    + " bytes of shared memory; the device has " + device.props().sharedMemoryPerBlock());
        }
        return shared;
    }

    private Kernel kernel(String module, String name) {
        return kernels.kernel(module, name);
    }

    /** A grid-stride launch over {@code work} items: blocks of 256, at most 65535 of them. */
    private void launchGrid(Kernel k, long work, KernelArgs args) {
        int grid = (int) Math.min((work + BLOCK - 1) / BLOCK, MAX_GRID);
        k.launch(stream, Math.max(grid, 1), 1, 1, BLOCK, 0, args);
    }

    private static int ceil(long a, int b) {
        return Math.toIntExact((a + b - 1) / b);
    }

    private static GpuBuffer buf(Buffer b) {
        if (b instanceof GpuBuffer g) {
            return g;
        }
        throw new IllegalArgumentException("a buffer of another backend: " + b);
    }

    private static GpuWeight weight(Weight w) {
        if (w instanceof GpuWeight g) {
            return g;
        }
        throw new IllegalArgumentException("a weight of another backend: " + w.source().describe());
    }

    private static void checkRange(GpuBuffer b, long offset, long count) {
        if (offset < 0 || count < 0 || offset + count > b.floats()) {
            throw new IndexOutOfBoundsException("floats " + offset + ".." + (offset + count) + " of a buffer of "
                    + b.floats());
        }
    }
}
