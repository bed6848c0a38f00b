package dev.dictum.gpu.backend;

import static dev.dictum.gpu.backend.GpuMemory.anyBuf;
import static dev.dictum.gpu.backend.GpuMemory.buf;
import static dev.dictum.gpu.backend.GpuMemory.checkRange;
import static dev.dictum.gpu.backend.GpuMemory.weight;
import static dev.dictum.gpu.backend.KernelChoice.GEMV_MAX_ROWS;
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
 */
final class ProjectionOps {
    private final String api;
    private final Stream stream;
    private final KernelCache kernels;
    private final DeviceProps props;
    private final HiloGemm hilo;
    /**
     * Whether one-row ops take the one-row kernels: normLinear and projectStep fused (one launch each),
     * linear as gemv1_f16 / gemv1_pipe_f16; DICTUM_GPU_FUSION=0 or {@link GpuBackend#fuseSteps} turns it
     * off (A/B runs, tests of the unfused path: layer_norm_f32, gemv_f16, gemv3_f16, kv_append_f32).
     */
    boolean fuse = !"0".equals(System.getenv("DICTUM_GPU_FUSION"));
    /** The module gemm_f16 comes from: "gemm", or in tests "gemm_portable" ({@link GpuBackend#withModules}). */
    String gemmModule = "gemm";

    ProjectionOps(String api, Stream stream, KernelCache kernels, DeviceProps props, HiloGemm hilo) {
        this.api = api;
        this.stream = stream;
        this.kernels = kernels;
        this.props = props;
        this.hilo = hilo;
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
        KernelArgs a = new KernelArgs().ptr(buf(x).at(xOffset)).ptr(weight(w).address())
                .ptr(bias == null ? 0 : weight(bias).address()).ptr(buf(out).at(outOffset)).i32(rows).i32(n).i32(k)
                .i32(epilogueCode(epilogue));
        int warp = props.warpSize();
        if (rows == 1 && fuse && oneRowGemvHasFewerRegisters(api)) { // gemv_f16's one-row pass: the same bits
            KernelArgs one = new KernelArgs().ptr(buf(x).at(xOffset)).ptr(weight(w).address())
                    .ptr(bias == null ? 0 : weight(bias).address()).ptr(buf(out).at(outOffset)).i32(n).i32(k)
                    .i32(epilogueCode(epilogue));
            if (pipelined(n, k, warp, buf(x).at(xOffset), weight(w).address())) {
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
            hilo.multiply(hi, rows, w, bias, buf(out).at(outOffset), n, k, epilogue);
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
            kernels.kernel("gemv", "gemv3_f16").launch(stream, gemvGrid(n, k, props.warpSize()), ps.length, 1,
                    GEMV_BLOCK, 0, a);
            return true;
        }
        boolean split = same && rows > GEMV_MAX_ROWS;
        for (Projection p : ps) {
            split &= gemmModule.equals("gemm") && hilo.fits(rows, p.w());
        }
        if (!split) {
            return false;
        }
        long hi = hilo.split(buf(x).at(0), (long) rows * k);
        for (Projection p : ps) {
            hilo.multiply(hi, rows, p.w(), p.bias(), buf(p.out()).at(0), n, k, Epilogue.NONE);
        }
        return true;
    }

    /** See {@link GpuBackend#linearHilo}. */
    boolean linearHilo(KernelChoice.HiloKernel h, Buffer x, int rows, Weight w, Weight bias, Buffer out,
            Epilogue epilogue) {
        int n = Math.toIntExact(w.rows());
        int k = Math.toIntExact(w.cols());
        if (!hilo.canRun(h, w, k)) {
            return false;
        }
        checkRange(buf(x), 0, (long) rows * k);
        checkRange(buf(out), 0, (long) rows * n);
        long hi = hilo.split(buf(x).at(0), (long) rows * k);
        hilo.multiply(h, hi, rows, w, bias, buf(out).at(0), n, k, epilogue);
        return true;
    }

    /**
     * One row: the layer norm in gemv1_ln_f16's prologue (every block normalises x into its shared memory)
     * where {@link KernelChoice#normLinearFused} allows (tiny's and small's short GEMVs); else false.
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
        kernels.kernel("gemv", "gemv1_ln_f16").launch(stream, gemvGrid(n, k, props.warpSize()), 1, 1, GEMV_BLOCK,
                lnShared(k), new KernelArgs().ptr(buf(x).at(0)).ptr(weight(gain).address()).ptr(weight(lnBias).address())
                        .ptr(weight(w).address()).ptr(bias == null ? 0 : weight(bias).address()).ptr(buf(out).at(0))
                        .i32(n).i32(k).i32(epilogueCode(epilogue)));
        return true;
    }

    /**
     * One launch of gemv3_1_f16 (gemv3_1_f16kv into f16 caches): the layer norm in its prologue, Q/K/V as
     * blockIdx.y, K and V stored straight into the caches' row step[1]; false where it does not apply.
     */
    boolean projectStep(Buffer x, Weight gain, Weight lnBias, Projection q, Projection k, Projection v,
            Buffer keys, Buffer values, long rowStride, Buffer step) {
        int n = Math.toIntExact(q.w().rows());
        int cols = Math.toIntExact(q.w().cols());
        boolean same = k.w().rows() == n && v.w().rows() == n && k.w().cols() == cols && v.w().cols() == cols;
        if (!fuse || !same || !normFused(3L * n, cols, props.sharedMemoryPerBlock())) {
            return false;
        }
        checkRange(buf(x), 0, cols);
        checkRange(buf(q.out()), 0, n);
        checkRange(buf(step), 0, 3);
        boolean half = RowAttention.half(keys, values);
        checkRange(anyBuf(keys), 0, n); // row step[1] is read on the device: the caller keeps it in range
        checkRange(anyBuf(values), 0, n);
        KernelArgs a = new KernelArgs().ptr(buf(x).at(0)).ptr(weight(gain).address()).ptr(weight(lnBias).address());
        for (Projection p : new Projection[] {q, k, v}) {
            long o = p == q ? buf(q.out()).at(0) : anyBuf(p == k ? keys : values).at(0);
            a.ptr(weight(p.w()).address()).ptr(p.bias() == null ? 0 : weight(p.bias()).address()).ptr(o);
        }
        a.i32(n).i32(cols).ptr(buf(step).at(0)).i64(rowStride);
        kernels.kernel("gemv", half ? "gemv3_1_f16kv" : "gemv3_1_f16").launch(stream,
                gemvGrid(n, cols, props.warpSize()), 3, 1, GEMV_BLOCK, lnShared(cols), a);
        return true;
    }
}
