package dev.dictum.gpu.backend;

import static dev.dictum.gpu.backend.GpuMemory.anyBuf;
import static dev.dictum.gpu.backend.GpuMemory.buf;
import static dev.dictum.gpu.backend.GpuMemory.checkRange;
import static dev.dictum.gpu.backend.GpuMemory.weight;
import static dev.dictum.gpu.backend.KernelChoice.GEMV_MAX_ROWS;
import static dev.dictum.gpu.backend.KernelChoice.dequantGemm;
import static dev.dictum.gpu.backend.KernelChoice.epilogueCode;
import static dev.dictum.gpu.backend.KernelChoice.normFused;
import static dev.dictum.gpu.backend.KernelChoice.normLinearFused;
import static dev.dictum.gpu.backend.KernelChoice.oneRowGemvHasFewerRegisters;
import static dev.dictum.gpu.backend.KernelChoice.pipelined;
import static dev.dictum.gpu.backend.LaunchGeometry.BLOCK;
import static dev.dictum.gpu.backend.LaunchGeometry.GEMV_BLOCK;
import static dev.dictum.gpu.backend.LaunchGeometry.PIPE_BLOCKS_PER_SM;
import static dev.dictum.gpu.backend.LaunchGeometry.ceil;
import static dev.dictum.gpu.backend.LaunchGeometry.gemmTile;
import static dev.dictum.gpu.backend.LaunchGeometry.gemvGrid;
import static dev.dictum.gpu.backend.LaunchGeometry.lnShared;

import dev.dictum.gpu.Backend.Projection;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.Epilogue;
import dev.dictum.gpu.Weight;
import dev.dictum.gpu.device.DeviceProps;
import dev.dictum.gpu.device.KernelArgs;
import dev.dictum.gpu.device.KernelCache;
import dev.dictum.gpu.device.Stream;

/**
 * The launches of the weight products: which GEMV or GEMM entry a linear, a set of projections, a
 * layer norm followed by a linear, or a decoder step's Q/K/V takes, and its arguments. An op this
 * class has no launch for returns false and {@link GpuBackend} runs {@link dev.dictum.gpu.Backend}'s
 * default composition of smaller ops instead. Called under {@link GpuBackend}'s lock.
 *
 * <p>Weights held as q8_0 (issue 22; {@link GpuWeight#q8_0}): every GEMV entry has a q8_0 twin in
 * gemv_q8_0.cu (gemv_q8_0, gemv3_q8_0, gemv1_ln_q8_0, gemv3_1_q8_0, gemv3_1_q8_0kv) that reads the
 * blocks in place; a product of many rows ({@link KernelChoice#dequantGemm}) dequantises the matrix
 * into the weight scratch ({@link GpuMemory#dequantised}) and runs the f16 GEMM unchanged.
 */
final class ProjectionOps {
    private final String api;
    private final Stream stream;
    private final KernelCache kernels;
    private final DeviceProps props;
    private final HiloGemm hilo;
    private final GpuMemory memory;
    /**
     * Whether one-row ops take the one-row kernels: normLinear and projectStep fused (one launch each),
     * linear as gemv1_f16 / gemv1_pipe_f16; DICTUM_GPU_FUSION=0 or {@link GpuBackend#fuseSteps} turns it
     * off (A/B runs, tests of the unfused path: layer_norm_f32, gemv_f16, gemv3_f16, kv_append_f32).
     */
    boolean fuse = !"0".equals(System.getenv("DICTUM_GPU_FUSION"));
    /** The module gemm_f16 comes from: "gemm", or in tests "gemm_portable" ({@link GpuBackend#withModules}). */
    String gemmModule = "gemm";

    ProjectionOps(String api, Stream stream, KernelCache kernels, DeviceProps props, HiloGemm hilo,
            GpuMemory memory) {
        this.api = api;
        this.stream = stream;
        this.kernels = kernels;
        this.props = props;
        this.hilo = hilo;
        this.memory = memory;
    }

    /** The bias's f16 values, or 0 (none). */
    private static long bias(Weight bias) {
        return bias == null ? 0 : weight(bias).f16();
    }

    void linear(Buffer x, long xOffset, int rows, Weight w, Weight bias, Buffer out, long outOffset,
            Epilogue epilogue) {
        int n = Math.toIntExact(w.rows());
        int k = Math.toIntExact(w.cols());
        if (rows == 0) {
            return;
        }
        checkRange(buf(x), xOffset, (long) rows * k);
        checkRange(buf(out), outOffset, (long) rows * n);
        GpuWeight gw = weight(w);
        int warp = props.warpSize();
        if (gw.q8_0() && !dequantGemm(rows, n, k)) { // the blocks in place: a decoded token, beams, a draft's logits
            kernels.kernel("gemv_q8_0", "gemv_q8_0").launch(stream, gemvGrid(n, k, warp), 1, 1, GEMV_BLOCK, 0,
                    new KernelArgs().ptr(buf(x).at(xOffset)).ptr(gw.address()).ptr(bias(bias))
                            .ptr(buf(out).at(outOffset)).i32(rows).i32(n).i32(k).i32(epilogueCode(epilogue)));
            return;
        }
        // f16 from here on: a q8_0 matrix comes here only for a GEMM (dequantGemm), from the weight scratch
        long wh = memory.dequantised(gw);
        KernelArgs a = new KernelArgs().ptr(buf(x).at(xOffset)).ptr(wh).ptr(bias(bias)).ptr(buf(out).at(outOffset))
                .i32(rows).i32(n).i32(k).i32(epilogueCode(epilogue));
        if (rows == 1 && fuse && oneRowGemvHasFewerRegisters(api)) { // gemv_f16's one-row pass: the same bits
            KernelArgs one = new KernelArgs().ptr(buf(x).at(xOffset)).ptr(wh).ptr(bias(bias))
                    .ptr(buf(out).at(outOffset)).i32(n).i32(k).i32(epilogueCode(epilogue));
            if (pipelined(n, k, warp, buf(x).at(xOffset), wh)) {
                kernels.kernel("gemv", "gemv1_pipe_f16").launch(stream, PIPE_BLOCKS_PER_SM * props.multiprocessors(),
                        1, 1, GEMV_BLOCK, 0, one);
            } else {
                kernels.kernel("gemv", "gemv1_f16").launch(stream, gemvGrid(n, k, warp), 1, 1, GEMV_BLOCK, 0, one);
            }
        } else if (rows <= GEMV_MAX_ROWS) {
            kernels.kernel("gemv", "gemv_f16").launch(stream, gemvGrid(n, k, warp), 1, 1, GEMV_BLOCK, 0, a);
        } else if (gemmModule.equals("gemm") && hilo.fits(rows, w)) {
            // x as f16 hi/lo planes once (split_f32_hilo), then the 128 x 128 tile on them
            long hi = hilo.split(buf(x).at(xOffset), (long) rows * k);
            hilo.multiply(hi, rows, wh, bias, buf(out).at(outOffset), n, k, epilogue);
        } else {
            int t = gemmTile(kernels.module(gemmModule).image());
            kernels.kernel(gemmModule, "gemm_f16").launch(stream, ceil(n, t), ceil(rows, t), 1, BLOCK, 0, a);
        }
    }

    /**
     * Projections with f32 outs: a decoded token's (or a few beams') in one gemv3_f16 launch when they share
     * n and k (three at most); the encoder's with x split into f16 hi/lo planes once for all of them. False
     * where neither applies (then one linear each).
     */
    boolean project(Buffer x, int rows, Projection[] ps) {
        int n = Math.toIntExact(ps[0].w().rows());
        int k = Math.toIntExact(ps[0].w().cols());
        boolean q8 = weight(ps[0].w()).q8_0();
        boolean same = true;
        for (Projection p : ps) {
            same &= p.w().rows() == n && p.w().cols() == k && weight(p.w()).q8_0() == q8;
            checkRange(buf(p.out()), 0, (long) rows * p.w().rows());
        }
        checkRange(buf(x), 0, (long) rows * k);
        if (same && rows <= GEMV_MAX_ROWS && ps.length <= 3) {
            KernelArgs a = new KernelArgs().ptr(buf(x).at(0));
            for (int i = 0; i < 3; i++) {
                Projection p = ps[Math.min(i, ps.length - 1)]; // unused slots repeat the last (never read)
                a.ptr(weight(p.w()).address()).ptr(bias(p.bias())).ptr(buf(p.out()).at(0));
            }
            a.i32(rows).i32(n).i32(k);
            kernels.kernel(q8 ? "gemv_q8_0" : "gemv", q8 ? "gemv3_q8_0" : "gemv3_f16").launch(stream,
                    gemvGrid(n, k, props.warpSize()), ps.length, 1, GEMV_BLOCK, 0, a);
            return true;
        }
        boolean split = same && rows > GEMV_MAX_ROWS && (!q8 || dequantGemm(rows, n, k));
        for (Projection p : ps) {
            split &= gemmModule.equals("gemm") && hilo.fits(rows, p.w());
        }
        if (!split) {
            return false;
        }
        long hi = hilo.split(buf(x).at(0), (long) rows * k);
        for (Projection p : ps) { // a q8_0 matrix dequantised right before its GEMM: one scratch serves all
            hilo.multiply(hi, rows, memory.dequantised(weight(p.w())), p.bias(), buf(p.out()).at(0), n, k,
                    Epilogue.NONE);
        }
        return true;
    }

    /** See {@link GpuBackend#linearHilo}. */
    boolean linearHilo(KernelChoice.HiloKernel h, Buffer x, int rows, Weight w, Weight bias, Buffer out,
            Epilogue epilogue) {
        int n = Math.toIntExact(w.rows());
        int k = Math.toIntExact(w.cols());
        GpuWeight gw = weight(w);
        if (!hilo.canRun(h, gw.q8_0() ? 0 : gw.f16(), k)) { // a q8_0 matrix: from the (aligned) weight scratch
            return false;
        }
        checkRange(buf(x), 0, (long) rows * k);
        checkRange(buf(out), 0, (long) rows * n);
        long hi = hilo.split(buf(x).at(0), (long) rows * k);
        hilo.multiply(h, hi, rows, memory.dequantised(gw), bias, buf(out).at(0), n, k, epilogue);
        return true;
    }

    /**
     * One row: the layer norm in gemv1_ln_f16's (gemv1_ln_q8_0's) prologue (every block normalises x into its
     * shared memory) where {@link KernelChoice#normLinearFused} allows (tiny's and small's short GEMVs); else false.
     */
    boolean normLinear(Buffer x, int rows, Weight gain, Weight lnBias, Weight w, Weight bias, Buffer out,
            Epilogue epilogue) {
        int n = Math.toIntExact(w.rows());
        int k = Math.toIntExact(w.cols());
        if (!fuse || rows != 1 || !normLinearFused(n, k, props.sharedMemoryPerBlock())) {
            return false;
        }
        checkRange(buf(x), 0, k);
        checkRange(buf(out), 0, n);
        GpuWeight gw = weight(w);
        kernels.kernel(gw.q8_0() ? "gemv_q8_0" : "gemv", gw.q8_0() ? "gemv1_ln_q8_0" : "gemv1_ln_f16").launch(stream,
                gemvGrid(n, k, props.warpSize()), 1, 1, GEMV_BLOCK, lnShared(k), new KernelArgs().ptr(buf(x).at(0))
                        .ptr(weight(gain).f16()).ptr(weight(lnBias).f16()).ptr(gw.address()).ptr(bias(bias))
                        .ptr(buf(out).at(0)).i32(n).i32(k).i32(epilogueCode(epilogue)));
        return true;
    }

    /**
     * One launch of gemv3_1_f16 (gemv3_1_f16kv into f16 caches; gemv3_1_q8_0 / gemv3_1_q8_0kv for q8_0
     * weights): the layer norm in its prologue, Q/K/V as blockIdx.y, K and V stored straight into the
     * caches' row step[1]; false where it does not apply (weights of both kinds among the three).
     */
    boolean projectStep(Buffer x, Weight gain, Weight lnBias, Projection q, Projection k, Projection v,
            Buffer keys, Buffer values, long rowStride, Buffer step) {
        int n = Math.toIntExact(q.w().rows());
        int cols = Math.toIntExact(q.w().cols());
        boolean q8 = weight(q.w()).q8_0();
        boolean same = k.w().rows() == n && v.w().rows() == n && k.w().cols() == cols && v.w().cols() == cols
                && weight(k.w()).q8_0() == q8 && weight(v.w()).q8_0() == q8;
        if (!fuse || !same || !normFused(3L * n, cols, props.sharedMemoryPerBlock())) {
            return false;
        }
        checkRange(buf(x), 0, cols);
        checkRange(buf(q.out()), 0, n);
        checkRange(buf(step), 0, 3);
        boolean half = RowAttention.half(keys, values);
        checkRange(anyBuf(keys), 0, n); // row step[1] is read on the device: the caller keeps it in range
        checkRange(anyBuf(values), 0, n);
        KernelArgs a = new KernelArgs().ptr(buf(x).at(0)).ptr(weight(gain).f16()).ptr(weight(lnBias).f16());
        for (Projection p : new Projection[] {q, k, v}) {
            long o = p == q ? buf(q.out()).at(0) : anyBuf(p == k ? keys : values).at(0);
            a.ptr(weight(p.w()).address()).ptr(bias(p.bias())).ptr(o);
        }
        a.i32(n).i32(cols).ptr(buf(step).at(0)).i64(rowStride);
        String kernel = (q8 ? "gemv3_1_q8_0" : "gemv3_1_f16") + (half ? "kv" : "");
        kernels.kernel(q8 ? "gemv_q8_0" : "gemv", kernel).launch(stream, gemvGrid(n, cols, props.warpSize()), 3, 1,
                GEMV_BLOCK, lnShared(cols), a);
        return true;
    }
}
