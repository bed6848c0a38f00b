package dev.dictum.gpu.backend;

/**
 * Grids, blocks and dynamic shared memory of every launch (ABI.md), per op family: element-wise and
 * layer norm, GEMV, self- and cross-attention. Pure functions of the shape and the device's figures,
 * so that the geometry tests run without a GPU.
 */
final class LaunchGeometry {
    private LaunchGeometry() {
    }

    /** Threads of a grid-stride (element-wise) launch and of the GEMM / conv / transpose tiles. */
    static final int BLOCK = 256;
    static final int MAX_GRID = 65535;

    static int ceil(long a, int b) {
        return Math.toIntExact((a + b - 1) / b);
    }

    // ---- element-wise and layer norm -------------------------------------------------------------

    /** Blocks of a grid-stride launch over {@code work} items: blocks of 256, at least 1, at most 65535. */
    static int gridStrideBlocks(long work) {
        int grid = (int) Math.min((work + BLOCK - 1) / BLOCK, MAX_GRID);
        return Math.max(grid, 1);
    }

    /**
     * layer_norm_f32's block: one warp per row, so 4 rows a block at warp 32 (2 at wave 64); 1500
     * encoder rows are 375 blocks, all resident at once on an H100 (128 registers a thread).
     */
    static final int LAYER_NORM_BLOCK = 128;
    /** layer_norm_f32's __launch_bounds__: the row held in registers must not spill. */
    static final int LAYER_NORM_MAX_BLOCK = 256;

    /** layer_norm_f32's grid: a warp per row, block / warp rows a block (grid-stride past the cap). */
    static int layerNormGrid(int rows, int block, int warp) {
        return Math.min(ceil(rows, block / warp), MAX_GRID);
    }

    // ---- GEMV ------------------------------------------------------------------------------------

    /**
     * GEMV block: 4 warps of 32 (2 waves of 64), so a 1280-column projection is 320 blocks and
     * spreads over an H100's 132 SMs within 3 blocks of each other (256 threads left 28 SMs with
     * twice the bytes of the rest).
     */
    static final int GEMV_BLOCK = 128;
    /** 4 blocks of 128 per SM: all resident at gemv1_pipe_f16's 102 registers (sm_90), the best measured. */
    static final int PIPE_BLOCKS_PER_SM = 4;

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

    /** Dynamic shared memory of gemv1_ln_f16 / gemv3_1_f16: the row (k floats) and its gain and bias (k half2). */
    static int lnShared(int k) {
        return Math.toIntExact(8L * k);
    }

    // ---- attention -------------------------------------------------------------------------------

    /** attention_f32's block (ABI.md). */
    static final int ATTENTION_BLOCK = 128;

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

    /** attention_f32's dynamic shared memory at {@code headDim}; a one-line error where it cannot run. */
    static int attentionShared(int headDim, int sharedPerBlock) {
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
        if (shared > sharedPerBlock) {
            throw new IllegalArgumentException("attention with head size " + headDim + " needs " + shared
                    + " bytes of shared memory; the device has " + sharedPerBlock);
        }
        return shared;
    }

    /** cross_attention_f32's block: chunks of ~100 keys keep 128 threads busy. */
    static final int CROSS_BLOCK = 128;
    static final int CROSS_SLOTS_PER_SM = 4;
    /** One partial: max, sum and headDim accumulators (heads up to 256 wide split; wider ones don't). */
    static final int CROSS_SLOT_FLOATS = 258;

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
}
