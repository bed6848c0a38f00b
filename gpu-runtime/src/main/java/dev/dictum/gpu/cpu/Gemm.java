package dev.dictum.gpu.cpu;

/**
 * Cache-blocked GEMM for many rows of A (the encoder: M = 1500): C[M, N] = epilogue(A · Wᵀ).
 *
 * <p>Per depth block, two parallel steps: A's rows for that depth are packed once into MR-row,
 * k-major micro-panels ({@link GemmRows}), then every task (column block × row chunk) packs its W
 * block and runs the micro-kernel over the packed A. Blocking (sizes are properties, defaults chosen
 * for both the 2-core Xeon this was measured on, 48 KiB L1d and 2 MiB L2 per core, and Zen 4, 32 KiB
 * and 1 MiB):
 * <ul>
 *   <li>NC = 128 columns per task (4 micro-panels at 512 bits, 8 at 256): the unit of parallel work
 *       and of W packing.
 *   <li>Depth blocks of at most KC = 512, split evenly ({@link #depthBlock}: K = 384 is one block,
 *       768 two of 384, 1280 three of 448 and a last of 384), never a short tail block. A micro-panel
 *       of W (kc × PW floats: up to 64 KiB at 512 bits, 32 KiB at 256) stays in L1/L2 while the kernel
 *       sweeps MC rows of packed A over it; the packed W block (kc × NC, up to 256 KiB) stays in L2.
 *       Measured on the kernel alone (Zen 4): KC 64 → 75, 128 → 88, 256 → 97 GFLOP/s per core.
 *       Measured on the whole GEMM (issue 21, Intel with AVX-512, one thread, per CPU-second, machine
 *       under load 17-40): tiny's [1500×384]·[1536×384]ᵀ at 256 bits 28-31 GFLOP/s with KC = 256
 *       (blocks 256 + 128) against 38-43 as one block of 384 or 512; at 512 bits 55-62 against 78-92.
 *       Session 12 (packed A) tried again at 512 bits, where the kernel alone is faster with the W
 *       micro-panel in L1 (kc 192-256: 136-147 against 113-124 at 384): KC = 256, and splitting each
 *       block into kernel calls of at most 256, were both not separable from the load's noise on the
 *       whole GEMM, so neither is the default.
 *   <li>MC = 120 rows: the MC × kc slice of packed A (up to 240 KiB) stays in L2 next to the packed W
 *       block (60, 240 and 480 were not separable from it under load).
 *   <li>Packed A: M × kc floats per call, in a buffer of the calling thread that the call's tasks on
 *       other threads read; packing costs M·kc copies per depth block against 2·M·N·kc FLOPs, once for
 *       all column blocks (before session 12 the kernel read MR rows of A {@code lda} apart, a stream
 *       each).
 *   <li>Tasks = column blocks × row chunks; row chunks only as many as needed to give every thread
 *       several tasks (each chunk re-packs its W block, so fewer is cheaper; the encoder's shapes on
 *       two threads have one chunk).
 * </ul>
 * Summation order depends only on the shapes, never on the thread that runs a task, so results are
 * bit-identical from run to run and between serial and concurrent calls.
 */
final class Gemm {

    static final int MR = GemmKernel.MR;
    static final int PW = GemmKernel.PW;
    static final int NC = Integer.getInteger("dictum.cpu.gemm.nc", 128);
    /** The deepest depth block; a multiple of 32 so block-quantised weights pack whole blocks. */
    static final int KC = Integer.getInteger("dictum.cpu.gemm.kc", 512);
    /** Rows of A per sweep (a multiple of MR): an MC × KC slice of packed A stays in L2 while every micro-panel passes over it. */
    static final int MC = Math.max(MR, Integer.getInteger("dictum.cpu.gemm.mc", 120) / MR * MR);

    /**
     * Per-thread scratch, reused across calls: one KC × NC packed block, one row of KC, and the tile the
     * micro-kernel's accumulators leave through.
     */
    private static final ThreadLocal<float[][]> SCRATCH = ThreadLocal.withInitial(
            () -> new float[][] {new float[KC * NC], new float[KC], new float[GemmKernel.ACC]});

    /**
     * The calling thread's packed A (one depth block of all rows), grown to the largest call it made; the
     * call's tasks on other threads read it while the caller waits for them, so it is the call's alone.
     */
    private static final ThreadLocal<float[][]> PACKED_ROWS = ThreadLocal.withInitial(() -> new float[][] {new float[0]});

    private Gemm() {
    }

    static void run(float[] a, int aOff, int lda, int m, int n, int k, GemmPanels w,
            float[] c, int cOff, int ldc, KernelEpilogue e) {
        int nBlocks = (n + NC - 1) / NC;
        int mTiles = (m + MR - 1) / MR;
        int wanted = 4 * ComputePool.THREADS;
        int mChunks = Math.max(1, Math.min(mTiles, (wanted + nBlocks - 1) / nBlocks));
        int tilesPerChunk = (mTiles + mChunks - 1) / mChunks;
        int chunks = (mTiles + tilesPerChunk - 1) / tilesPerChunk;
        int step = depthBlock(k);
        float[] ap = packedRows(GemmRows.size(m, Math.min(step, k)));
        int packTasks = Math.min(mTiles, wanted);
        int tilesPerPack = (mTiles + packTasks - 1) / packTasks;
        for (int k0 = 0; k0 < k; k0 += step) {
            int depth = k0;
            int kc = Math.min(step, k - k0);
            // A's depth block packed once for all column blocks (its cost is M·kc copies against the block's
            // 2·M·N·kc FLOPs), then every task of the block reads it.
            ComputePool.parallelFor((mTiles + tilesPerPack - 1) / tilesPerPack, t -> GemmRows.pack(a, aOff, lda, m,
                    depth, kc, t * tilesPerPack, Math.min(mTiles, (t + 1) * tilesPerPack), ap));
            ComputePool.parallelFor(nBlocks * chunks, t -> {
                int nb = t % nBlocks;
                int ch = t / nBlocks;
                int m0 = ch * tilesPerChunk * MR;
                int m1 = Math.min(m, m0 + tilesPerChunk * MR);
                block(ap, m0, m1, nb * NC, Math.min(NC, n - nb * NC), depth, kc, k, w, c, cOff, ldc, e);
            });
        }
    }

    private static float[] packedRows(int size) {
        float[][] holder = PACKED_ROWS.get();
        if (holder[0].length < size) {
            holder[0] = new float[size];
        }
        return holder[0];
    }

    /**
     * The depth per packed block for depth k: k split into the fewest blocks of at most KC, as even
     * as multiples of 32 allow (the last block is at most 32 per block shorter than the others).
     */
    static int depthBlock(int k) {
        int blocks = (k + KC - 1) / KC;
        int even = (k + blocks - 1) / blocks;
        return Math.min(KC, (even + 31) / 32 * 32);
    }

    /**
     * Rows [m0, m1) × columns [n0, n0+nc) of C at depths [k0, k0+kc) of k, from A packed for this depth
     * block ({@code ap}); the first block writes C through the epilogue, later ones add to it, and the
     * last applies GELU.
     */
    private static void block(float[] ap, int m0, int m1, int n0, int nc, int k0, int kc, int k,
            GemmPanels w, float[] c, int cOff, int ldc, KernelEpilogue e) {
        float[][] scratch = SCRATCH.get();
        float[] panel = scratch[0];
        float[] acc = scratch[2];
        boolean first = k0 == 0;
        w.pack(n0, nc, k0, kc, panel, scratch[1]);
        for (int mc0 = m0; mc0 < m1; mc0 += MC) {
            int mc1 = Math.min(m1, mc0 + MC);
            for (int j = 0; j * PW < nc; j++) {
                int col = n0 + j * PW;
                int cols = Math.min(PW, nc - j * PW);
                int wpOff = j * kc * PW;
                for (int r = mc0; r < mc1; r += MR) {
                    GemmKernel.tile(kc, ap, r * kc, panel, wpOff, c, cOff + r * ldc + col, ldc,
                            Math.min(MR, mc1 - r), cols, first, e, r, col, acc);
                }
            }
        }
        if (e.gelu() && k0 + kc >= k) {
            // GELU as its own pass over the block while it is still in L2, not in the micro-kernel's
            // store: there it made the store too big for C2 to inline at the twelve call sites, and
            // every accumulator crossing the call was boxed (measured: a fifth of encoder time).
            for (int r = m0; r < m1; r++) {
                Gelu.apply(c, cOff + r * ldc + n0, nc);
            }
        }
    }
}
