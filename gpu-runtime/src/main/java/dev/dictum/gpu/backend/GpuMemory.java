package dev.dictum.gpu.backend;

import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.DType;
import dev.dictum.gpu.HostTensor;
import dev.dictum.gpu.MemoryCategory;
import dev.dictum.gpu.MemoryFit;
import dev.dictum.gpu.MemoryLedger;
import dev.dictum.gpu.MemoryReport;
import dev.dictum.gpu.ModelTooLarge;
import dev.dictum.gpu.Weight;
import dev.dictum.gpu.device.Device;
import dev.dictum.gpu.device.DeviceBuffer;
import dev.dictum.gpu.device.Kernel;
import dev.dictum.gpu.device.KernelArgs;
import dev.dictum.gpu.device.KernelCache;
import dev.dictum.gpu.device.Stream;
import java.util.Locale;

/**
 * What {@link GpuBackend} holds in device memory, and how it gets there: weights uploaded as the file
 * stores them and turned into f16 on the device (convert/dequant kernels), except a q8_0 file's
 * matrices, which stay q8_0 blocks (issue 22), activation buffers (f32, or f16 for the cross K/V), the
 * staging ring for host copies, and the scratch the ops reuse (the raw upload scratch, the hilo GEMM's
 * input planes, the f16 weight scratch a q8_0 matrix is dequantised into before a GEMM,
 * cross-attention's partials, the f32 stage of f16 projections). Everything here is freed by {@link #close} and nothing
 * before it, except scratch that grows (after the stream has finished with the old one). Not
 * thread-safe: the backend's lock serialises every call. Every allocation is counted by
 * {@link MemoryCategory} in a {@link MemoryLedger} ({@link #report}).
 */
final class GpuMemory implements AutoCloseable {
    private final Device device;
    private final Stream stream;
    private final KernelCache kernels;
    private final DeviceBuffer ringOnDevice;
    private final Staging staging;
    private final MemoryLedger ledger = new MemoryLedger();
    /** The device's used bytes (total - free) before this memory allocated anything: the context, modules. */
    private final long usedAtStart;
    /** The weights' memory: packed into chunks, not one 2 MiB-rounded allocation each. */
    private final WeightArena<DeviceBuffer> weights = new WeightArena<>(b -> deviceBytes(b, MemoryCategory.WEIGHTS),
            DeviceBuffer::address, DeviceBuffer::bytes, b -> free(b, MemoryCategory.WEIGHTS));
    private DeviceBuffer rawScratch;
    /** x's f16 hi/lo planes for gemm_f16_hilo (grown as needed; freed at close). */
    private DeviceBuffer hiloPlanes;
    /** The f16 values of the q8_0 matrix the next GEMM reads ({@link #dequantised}; grown as needed). */
    private DeviceBuffer weightScratch;
    /** A projection into an f16 buffer lands here in f32 first ({@link #halfStage}; grown as needed). */
    private GpuBuffer halfStage;
    /**
     * cross_attention_f32's per-chunk partials and per-(head, row) tickets: allocated once at a fixed
     * size and never moved, since a captured decoder-step graph holds their addresses.
     */
    private final DeviceBuffer crossPartials;
    private final DeviceBuffer crossTickets;

    /** The most a model may hold here (bytes; {@link #NO_LIMIT} unless the user set one: {@link #limitFrom}). */
    private final long limit;
    static final long NO_LIMIT = Long.MAX_VALUE;
    /** The variable that limits what a model may hold on the GPU, in MiB (its context not counted). */
    static final String LIMIT_VARIABLE = "DICTUM_GPU_MEMORY_MIB";

    GpuMemory(Device device, Stream stream, KernelCache kernels, long limit) {
        this.limit = limit;
        this.device = device;
        this.stream = stream;
        this.kernels = kernels;
        long[] info = device.memoryInfo();
        this.usedAtStart = info[1] - info[0];
        this.ringOnDevice = deviceBytes(Staging.RING_BYTES, MemoryCategory.STAGING);
        this.staging = new Staging(device.driver(), stream, ringOnDevice);
        // Allocated here, not at the first cross-attention: no allocation may happen while a
        // decoder step is being captured, and a captured graph keeps these addresses.
        int slots = LaunchGeometry.CROSS_SLOTS_PER_SM * device.props().multiprocessors();
        this.crossPartials = deviceBytes(4L * slots * LaunchGeometry.CROSS_SLOT_FLOATS, MemoryCategory.DECODER_SCRATCH);
        this.crossTickets = deviceBytes(4L * slots, MemoryCategory.DECODER_SCRATCH);
        stream.fill32(crossTickets.address(), 0, slots); // each split launch leaves them at 0 again
    }

    /**
     * Throws {@link ModelTooLarge} (naming the figures) unless {@code need} bytes (f16 weights and
     * working memory) fit the device's free memory with {@link MemoryFit}'s margin.
     */
    void checkFits(String what, long need, String deviceName) {
        long[] info = device.memoryInfo();
        if (!MemoryFit.fits(need, info[0])) {
            throw new ModelTooLarge(String.format(Locale.ROOT,
                    "%s needs about %.2f GiB on %s (f16 weights and working memory), but %.2f GiB of %.2f GiB"
                            + " are free", what, need / GIB, deviceName, info[0] / GIB, info[1] / GIB));
        }
        if (need > limitLeft()) {
            throw new ModelTooLarge(String.format(Locale.ROOT, "%s needs about %.0f MiB on %s, over the %s=%d limit",
                    what, need / MIB, deviceName, LIMIT_VARIABLE, limit >> 20));
        }
    }

    /** What a model may still take: {@link MemoryFit}'s share of the free memory, within the user's limit. */
    long available() {
        return Math.min(MemoryFit.usable(device.memoryInfo()[0]), limitLeft());
    }

    /** The limit less what this backend holds already (staging, the ops' fixed scratch); unbounded without one. */
    private long limitLeft() {
        return limit == NO_LIMIT ? NO_LIMIT : Math.max(0, limit - ledger.report(-1, -1, -1).total().current());
    }

    /**
     * {@value #LIMIT_VARIABLE}'s value as bytes: {@link #NO_LIMIT} where unset or blank; a whole number of MiB
     * above 0 otherwise, or an {@link IllegalArgumentException} saying what it holds.
     */
    static long limitFrom(String mib) {
        if (mib == null || mib.isBlank()) {
            return NO_LIMIT;
        }
        try {
            long v = Long.parseLong(mib.strip());
            if (v > 0 && v < (1L << 43)) {
                return v << 20;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(LIMIT_VARIABLE + " must be a whole number of MiB above 0, got '" + mib
                + "'");
    }

    private static final double MIB = 1L << 20;

    private static final double GIB = 1L << 30;

    /** Device memory counted under {@code c}: every allocation here goes through this or a {@link GpuBuffer}. */
    private DeviceBuffer deviceBytes(long bytes, MemoryCategory c) {
        DeviceBuffer b = device.allocate(bytes);
        ledger.allocated(c, b.bytes());
        return b;
    }

    /** Device memory for weights that take turns in it ({@link GpuLayerTurns}), counted as weights. */
    DeviceBuffer weightSlots(long bytes) {
        return deviceBytes(bytes, MemoryCategory.WEIGHTS);
    }

    /** Frees what {@link #weightSlots} gave. */
    void freeWeightSlots(DeviceBuffer b) {
        free(b, MemoryCategory.WEIGHTS);
    }

    /** Frees {@code b} (null: nothing) and takes it off the ledger's {@code c}. */
    private void free(DeviceBuffer b, MemoryCategory c) {
        if (b != null) {
            b.close();
            ledger.freed(c, b.bytes());
        }
    }

    /** The ledger's figures and the device's (total - free now, and at start). */
    MemoryReport report() {
        long[] info = device.memoryInfo();
        return ledger.report(usedAtStart, info[1] - info[0], info[1]);
    }

    /** Frees the raw upload scratch (as large as the largest weight as stored); the next upload grows it again. */
    void uploadsDone() {
        if (rawScratch != null) {
            stream.synchronize(); // the last conversion has read it (upload waits, but keep it explicit)
            free(rawScratch, MemoryCategory.STAGING);
            rawScratch = null;
        }
    }

    /**
     * A weight on the device: f16, converted there from what the file stores; a q8_0 matrix
     * ({@link GpuWeight#keptAsQ8_0}) as the file's q8_0 blocks, copied unchanged: large-v3-turbo's weights
     * take ~830 MiB instead of 1543 (issue 22). q5_0, q5_1 and q4_0 still become f16 (no kernel reads their
     * blocks).
     */
    Weight upload(HostTensor t) {
        return uploadTo(t, weights.place(GpuBackend.weightBytes(t))); // a failed upload leaves its room unused
    }

    /** {@link #upload} to {@code at}, which has {@link GpuBackend#weightBytes} of room (a slot of {@link GpuLayerTurns}). */
    GpuWeight uploadTo(HostTensor t, long at) {
        long n = t.elementCount();
        if (GpuWeight.keptAsQ8_0(t)) {
            staging.toDevice(t.data(), at); // as an f16 file's: no raw scratch, no conversion
            return new GpuWeight(t, at, true);
        }
        long f16 = at;
        switch (t.dtype()) {
            case F16 -> staging.toDevice(t.data(), f16);
            case F32, BF16 -> {
                long raw = rawCopy(t);
                gridStride(kernels.kernel("convert", t.dtype() == DType.F32 ? "convert_f32_to_f16"
                        : "convert_bf16_to_f16"), n, new KernelArgs().ptr(raw).ptr(f16).i64(n));
            }
            case Q8_0, Q5_0, Q5_1, Q4_0 -> {
                long raw = rawCopy(t);
                long blocks = n / 32;
                gridStride(kernels.kernel("dequant", "dequant_" + t.dtype().name().toLowerCase(Locale.ROOT)
                        + "_f16"), n, new KernelArgs().ptr(raw).ptr(f16).i64(blocks));
            }
            case I8 -> {
                long raw = rawCopy(t);
                DeviceBuffer scales = deviceBytes(t.rowScales().byteSize(), MemoryCategory.STAGING);
                try {
                    staging.toDevice(t.rowScales(), scales.address());
                    gridStride(kernels.kernel("dequant", "dequant_i8_f16"), n, new KernelArgs().ptr(raw)
                            .ptr(scales.address()).ptr(f16).i32(Math.toIntExact(t.rows()))
                            .i32(Math.toIntExact(t.cols())));
                    stream.synchronize();
                } finally {
                    free(scales, MemoryCategory.STAGING);
                }
            }
            default -> throw new IllegalArgumentException(t.describe() + ": no GPU upload for " + t.dtype());
        }
        // The raw scratch is reused by the next upload: this conversion must have read it.
        stream.synchronize();
        return new GpuWeight(t, f16, false);
    }

    /** {@code count} floats of {@code b} from {@code offset} set to {@code value} (the fill kernel). */
    void fill(Buffer b, long offset, long count, float value) {
        checkRange(buf(b), offset, count);
        if (count > 0) {
            gridStride(kernels.kernel("fill", "fill_f32"), count, new KernelArgs().ptr(buf(b).at(offset)).f32(value)
                    .i64(count));
        }
    }

    /** A grid-stride launch over {@code work} items (LaunchGeometry#gridStrideBlocks). */
    void gridStride(Kernel k, long work, KernelArgs args) {
        k.launch(stream, LaunchGeometry.gridStrideBlocks(work), 1, 1, LaunchGeometry.BLOCK, 0, args);
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
                free(rawScratch, MemoryCategory.STAGING);
                rawScratch = null;
            }
            rawScratch = deviceBytes(bytes, MemoryCategory.STAGING);
        }
        return rawScratch;
    }

    /** gemm_f16_hilo's input planes: one buffer, grown to the largest {@code rows · k} seen. */
    DeviceBuffer hiloPlanes(long bytes) {
        if (hiloPlanes == null || hiloPlanes.bytes() < bytes) {
            if (hiloPlanes != null) {
                stream.synchronize(); // a GEMM queued on the old planes may still read them
                free(hiloPlanes, MemoryCategory.ENCODER_SCRATCH);
                hiloPlanes = null;
            }
            hiloPlanes = deviceBytes(bytes, MemoryCategory.ENCODER_SCRATCH);
        }
        return hiloPlanes;
    }

    /**
     * The f16 values of {@code w} for a GEMM (gemm_f16 and the hilo entries read f16): a q8_0 matrix is
     * dequantised (dequant_q8_0_f16: each value d·q in f32 as Dequant.java, rounded once to f16, as the
     * f16 upload of the same file did) into the one weight scratch shared by every q8_0 matrix, which
     * stays valid until the next call: the stream runs each GEMM before the next dequantisation
     * overwrites it. The scratch grows to the largest matrix asked for (KernelChoice#dequantGemm keeps
     * the token table out: at most 32 MiB). An f16 weight is returned as it is.
     */
    long dequantised(GpuWeight w) {
        if (!w.q8_0()) {
            return w.f16();
        }
        long values = w.source().elementCount();
        if (weightScratch == null || weightScratch.bytes() < 2 * values) {
            if (weightScratch != null) {
                stream.synchronize(); // a GEMM queued on the old scratch may still read it
                free(weightScratch, MemoryCategory.WEIGHT_SCRATCH);
                weightScratch = null;
            }
            weightScratch = deviceBytes(2 * values, MemoryCategory.WEIGHT_SCRATCH);
        }
        gridStride(kernels.kernel("dequant", "dequant_q8_0_f16"), values,
                new KernelArgs().ptr(w.address()).ptr(weightScratch.address()).i64(values / 32));
        return weightScratch.address();
    }

    long crossPartials() {
        return crossPartials.address();
    }

    long crossTickets() {
        return crossTickets.address();
    }

    /** {@code values} zeros, f32 or f16 ({@code half}: 2 bytes a value, an odd count padded to 4 bytes). */
    GpuBuffer allocate(long values, boolean half, MemoryCategory category) {
        long words = half ? (values + 1) / 2 : values;
        DeviceBuffer m = device.allocate(4 * words);
        if (words > 0) {
            stream.fill32(m.address(), 0, words);
        }
        return new GpuBuffer(m, values, half, ledger, category);
    }

    /**
     * {@code count} buffers of {@code values} zeros each ({@link #allocate}) in one device allocation, each
     * starting {@link WeightArena#ALIGN}-aligned ({@link GpuBuffer.Shared}: why).
     */
    GpuBuffer[] allocateSet(long values, int count, boolean half, MemoryCategory category) {
        long words = half ? (values + 1) / 2 : values;
        long stride = (4 * words + WeightArena.ALIGN - 1) / WeightArena.ALIGN * WeightArena.ALIGN;
        DeviceBuffer m = device.allocate(Math.max(1, stride * count));
        if (words > 0) {
            stream.fill32(m.address(), 0, stride / 4 * count);
        }
        GpuBuffer.Shared shared = new GpuBuffer.Shared(m, count);
        GpuBuffer[] set = new GpuBuffer[count];
        for (int i = 0; i < count; i++) {
            set[i] = new GpuBuffer(shared, i * stride, stride, values, half, ledger, category);
        }
        return set;
    }

    /**
     * f32 buffers of phases that never run at once ({@code Backend#allocateOverlaid}): every phase laid out
     * from the start of one allocation, each buffer {@link WeightArena#ALIGN}-aligned, so the phases overlap
     * and the allocation is as large as the largest phase. The ledger counts the allocation once (under the
     * first buffer; the others count 0 bytes); it is freed when every buffer is closed ({@link GpuBuffer.Shared}).
     * Zero-filled like every allocation, though no phase may rely on what another left there.
     */
    GpuBuffer[][] allocateOverlaid(long[][] layouts, MemoryCategory category) {
        long size = 0;
        int count = 0;
        for (long[] phase : layouts) {
            long end = 0;
            for (long floats : phase) {
                end += aligned(4 * floats);
            }
            size = Math.max(size, end);
            count += phase.length;
        }
        DeviceBuffer m = device.allocate(Math.max(1, size));
        stream.fill32(m.address(), 0, m.bytes() / 4);
        GpuBuffer.Shared shared = new GpuBuffer.Shared(m, count);
        GpuBuffer[][] out = new GpuBuffer[layouts.length][];
        boolean counted = false;
        for (int p = 0; p < layouts.length; p++) {
            out[p] = new GpuBuffer[layouts[p].length];
            long at = 0;
            for (int i = 0; i < layouts[p].length; i++) {
                long bytes = counted ? 0 : m.bytes();
                counted = true;
                out[p][i] = new GpuBuffer(shared, at, bytes, layouts[p][i], false, ledger, category);
                at += aligned(4 * layouts[p][i]);
            }
        }
        return out;
    }

    private static long aligned(long bytes) {
        return (bytes + WeightArena.ALIGN - 1) / WeightArena.ALIGN * WeightArena.ALIGN;
    }

    /**
     * An f32 buffer of at least {@code floats} values for a projection whose out is f16: it lands here
     * and is then rounded into the out ({@link #copy}). One buffer, grown to the largest seen, counted
     * as encoder scratch: only the window's cross values take this way, once per layer and window.
     */
    GpuBuffer halfStage(long floats) {
        if (halfStage == null || halfStage.floats() < floats) {
            if (halfStage != null) {
                stream.synchronize(); // a rounding queued from the old stage may still read it
                halfStage.close();
            }
            halfStage = allocate(floats, false, MemoryCategory.ENCODER_SCRATCH);
        }
        return halfStage;
    }

    void upload(float[] src, int srcOffset, Buffer dst, long dstOffset, int count) {
        GpuBuffer d = buf(dst);
        checkRange(d, dstOffset, count);
        staging.toDevice(src, srcOffset, d.at(dstOffset), count);
    }

    void download(Buffer src, long srcOffset, float[] dst, int dstOffset, int count) {
        GpuBuffer s = buf(src);
        checkRange(s, srcOffset, count);
        staging.toHost(s.at(srcOffset), dst, dstOffset, count);
    }

    /**
     * Tests: the first {@code count} values of an f16 buffer widened to f32, read as raw 4-byte words (an
     * odd count's buffer is padded to 4 bytes) whose low half is the even value (little-endian devices).
     */
    float[] downloadHalf(Buffer src, int count) {
        GpuBuffer s = anyBuf(src);
        checkRange(s, 0, count);
        if (!s.half()) {
            throw new IllegalArgumentException("an f32 buffer: download it");
        }
        float[] words = new float[(count + 1) / 2];
        staging.toHost(s.at(0), words, 0, words.length);
        float[] out = new float[count];
        for (int i = 0; i < count; i++) {
            int w = Float.floatToRawIntBits(words[i / 2]);
            out[i] = Float.float16ToFloat((short) (i % 2 == 0 ? w : w >>> 16));
        }
        return out;
    }

    /** A copy; f32 into an f16 buffer is rounded (convert_f32_to_f16); an f16 source only into f16. */
    void copy(Buffer src, long srcOffset, Buffer dst, long dstOffset, long count) {
        GpuBuffer s = anyBuf(src);
        GpuBuffer d = anyBuf(dst);
        checkRange(s, srcOffset, count);
        checkRange(d, dstOffset, count);
        if (s.half() && !d.half()) {
            throw new IllegalArgumentException("an f16 buffer is read only by the attention ops, not copied to f32");
        }
        if (count == 0) {
            return;
        }
        if (d.half() && !s.half()) {
            gridStride(kernels.kernel("convert", "convert_f32_to_f16"), count,
                    new KernelArgs().ptr(s.at(srcOffset)).ptr(d.at(dstOffset)).i64(count));
        } else {
            stream.copyOnDevice(d.at(dstOffset), s.at(srcOffset), (long) GpuBuffer.valueBytes(d.half()) * count);
        }
    }

    /** The first {@code count} ints on the device (through the staging ring), for one launch. */
    long ints(int[] values, int count) {
        return staging.ints(values, count);
    }

    /** Frees the weights, the scratch and the staging ring (the stream must have finished with them). */
    @Override
    public void close() {
        weights.close();
        free(rawScratch, MemoryCategory.STAGING);
        free(hiloPlanes, MemoryCategory.ENCODER_SCRATCH);
        free(weightScratch, MemoryCategory.WEIGHT_SCRATCH);
        if (halfStage != null) {
            halfStage.close();
        }
        free(crossPartials, MemoryCategory.DECODER_SCRATCH);
        free(crossTickets, MemoryCategory.DECODER_SCRATCH);
        staging.close();
        free(ringOnDevice, MemoryCategory.STAGING);
    }

    /**
     * An f32 buffer of this backend: every op's f32 pointers (an f16 buffer there would be read or
     * written past its end).
     */
    static GpuBuffer buf(Buffer b) {
        GpuBuffer g = anyBuf(b);
        if (g.half()) {
            throw new IllegalArgumentException("an f16 buffer (Backend.allocateHalf) where the op needs f32");
        }
        return g;
    }

    /** A buffer of this backend, f32 or f16: for the ops that take either (attention's K/V, transpose's, copy's dst). */
    static GpuBuffer anyBuf(Buffer b) {
        if (b instanceof GpuBuffer g) {
            return g;
        }
        throw new IllegalArgumentException("a buffer of another backend: " + b);
    }

    static GpuWeight weight(Weight w) {
        if (w instanceof GpuWeight g) {
            return g;
        }
        throw new IllegalArgumentException("a weight of another backend: " + w.source().describe());
    }

    static void checkRange(GpuBuffer b, long offset, long count) {
        if (offset < 0 || count < 0 || offset + count > b.floats()) {
            throw new IndexOutOfBoundsException("values " + offset + ".." + (offset + count) + " of a buffer of "
                    + b.floats());
        }
    }
}
