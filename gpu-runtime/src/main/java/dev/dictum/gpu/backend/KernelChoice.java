package dev.dictum.gpu.backend;

import dev.dictum.gpu.Epilogue;
import java.util.regex.Pattern;

/**
 * Which kernel an op launches, and why: the one-row GEMV variants (gemv1_f16, gemv1_pipe_f16, the
 * layer norm in the prologue) and the GEMM entries (gemm_f16's 64 × 64 tile or split_f32_hilo + one
 * of the hilo entries: 2-stage, two blocks per SM, deep pipeline). Every rule is a pure function of
 * the shape and the device, measured where the comment says, so that the tests pin each choice
 * without a GPU ({@code GemmTileChoiceTest}, {@code DecoderLaunchGeometryTest}).
 */
final class KernelChoice {
    private KernelChoice() {
    }

    // ---- GEMV ------------------------------------------------------------------------------------

    /** Rows up to which a linear runs as GEMV (streams W once) rather than the tiled GEMM. */
    static final int GEMV_MAX_ROWS = 8;
    static final int PIPE_MIN_COLUMNS = 16384;

    /**
     * Whether a one-row GEMV runs as gemv1_pipe_f16 on a grid of {@link LaunchGeometry#PIPE_BLOCKS_PER_SM}
     * blocks per SM: many columns (the logits; H100, kernel_bench: 51866 × 1280 in 49.6 µs instead of
     * gemv1_f16's 53.3 and gemv_f16's 90.6, 51865 × 384 in 22.5 instead of 40.0 and 54.4), rows of one
     * batch of 16-byte loads per lane and one warp per column (the kernel's fast path, gemv_f16's sum
     * order: the same bits), 16-byte aligned.
     */
    static boolean pipelined(int n, int k, int warp, long x, long w) {
        return n >= PIPE_MIN_COLUMNS && k % 8 == 0 && k / 8 <= 8 * warp
                && LaunchGeometry.gemvSplit(k, LaunchGeometry.GEMV_BLOCK / warp, warp) == 1
                && x % 16 == 0 && w % 16 == 0;
    }

    /**
     * gemv1_f16 holds fewer registers than gemv_f16 under nvcc (sm_90: 95 vs 116, so 5 blocks of 128 per
     * SM instead of 4), more under hipcc for gfx1010 (114 vs 94 VGPRs: 8 waves per SIMD instead of 10):
     * a one-row linear takes it on CUDA only.
     */
    static boolean oneRowGemvHasFewerRegisters(String api) {
        return api.equals("cuda");
    }

    /**
     * The most values of a q8_0 matrix that a product dequantises into the weight scratch before its GEMM
     * ({@link #dequantGemm}): 2^24 (a 32 MiB scratch) holds every layer's matrix of every Whisper
     * (large-v3's MLP, 5120 × 1280: 6.6 M), not the token table (51866 × 1280: 66 M, 127 MiB of f16).
     */
    static final long DEQUANT_GEMM_MAX_VALUES = 1L << 24;

    /**
     * Whether a product of {@code rows} rows with a q8_0 matrix of {@code n × k} runs as dequant_q8_0_f16
     * into the weight scratch, then the f16 GEMM unchanged (issue 22: the encoder's products, a prompt's,
     * the cross K/V's), rather than gemv_q8_0 over the blocks in place. Few rows (a decoded token, beams:
     * up to {@link #GEMV_MAX_ROWS}) are memory-bound and read the blocks once per 8 rows; many rows
     * are compute-bound and the GEMM's tiles want f16. No Whisper's token table (the logits of a draft's
     * rows; tiny's 51865 × 384 is already 19.9 M values) goes to the scratch: turbo's is 10 times any
     * layer's matrix (the scratch would be 127 MiB instead
     * of 12.5 for turbo), and gemv_q8_0 reads its 70 MB of blocks once per 8 rows, while expanding it
     * moves 70 MB + 2 × 133 MB before the GEMM starts: fewer bytes up to ~32 rows (a typical draft's
     * logits, KvDecoderState.allLogits); a longer draft costs one more pass per 8 rows (unmeasured).
     */
    static boolean dequantGemm(int rows, int n, int k) {
        return rows > GEMV_MAX_ROWS && (long) n * k <= DEQUANT_GEMM_MAX_VALUES;
    }

    static final int NORM_FUSED_MAX_SHARED = 32 * 1024;
    static final long NORM_FUSED_MAX_COLUMNS = 16384;
    static final long NORM_LINEAR_FUSED_MAX_WEIGHTS = 1L << 20;

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
        return k >= 1 && (long) LaunchGeometry.lnShared(k) <= Math.min(NORM_FUSED_MAX_SHARED, sharedPerBlock - 1024L)
                && columns <= NORM_FUSED_MAX_COLUMNS;
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

    // ---- GEMM ------------------------------------------------------------------------------------

    private static final Pattern GEMM_CUBIN = Pattern.compile("sm_(\\d+)/gemm\\.cubin");

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
        return (long) LaunchGeometry.ceil(rows, 128) * LaunchGeometry.ceil(n, 128) >= 2L * multiprocessors;
    }

    /** The least k for which the split into hi/lo planes pays (see {@link #wideTile}). */
    static final int HILO_MIN_K = 512;

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
        return hiloBody(gemmImage) && k >= HILO_MIN_K
                && 4L * LaunchGeometry.ceil(rows, 128) * LaunchGeometry.ceil(n, 128) >= 3L * multiprocessors;
    }

    /** Whether the gemm image holds the hilo entries' own bodies: a cubin for sm_80 or newer. */
    static boolean hiloBody(String gemmImage) {
        var cubin = GEMM_CUBIN.matcher(gemmImage);
        return cubin.matches() && Integer.parseInt(cubin.group(1)) >= 80;
    }

    /** The ABI's epilogue argument (ABI.md): 0 none, 1 GELU, 2 add to out. */
    static int epilogueCode(Epilogue e) {
        return switch (e) {
            case NONE -> 0;
            case GELU -> 1;
            case ADD -> 2;
        };
    }
}
