package dev.dictum.gpu.cpu;

/**
 * Cache-blocked GEMM for many rows of A (the encoder: M = 1500): C[M, N] = epilogue(A · Wᵀ).
 *
 * <p>Blocking, for Zen 4 (32 KiB L1d, 1 MiB L2 per core):
 * <ul>
 *   <li>NC = 4 micro-panels of columns per task: the unit of parallel work and of packing.
 *   <li>Depth blocks of at most KC = 512, split evenly ({@link #depthBlock}: K = 384 is one block,
 *       768 two of 384, 1280 three of 448 and a last of 384), never a short tail block. A micro-panel (kc × PW floats,
 *       up to 64 KiB at 512 bits, 32 KiB at 256) streams from L1/L2 while the kernel sweeps MC rows
 *       of A over it; the packed block (kc × NC, up to 256 KiB) stays in L2. Measured on the kernel
 *       alone (Zen 4): KC 64 → 75, 128 → 88, 256 → 97 GFLOP/s per core. Measured on the whole GEMM
 *       (issue 21, Intel with AVX-512, one thread, per CPU-second, machine under load 17-40):
 *       tiny's [1500×384]·[1536×384]ᵀ at 256 bits 28-31 GFLOP/s with KC = 256 (blocks 256 + 128)
 *       against 38-43 as one block of 384 or 512; at 512 bits 55-62 against 78-92.
 *   <li>MC = 120 rows: the MC × KC slice of A (120 KiB) stays in L2 next to the packed block,
 *       so A streams from L3/DRAM once per column block, not once per micro-panel.
 *   <li>Tasks = column blocks × row chunks; row chunks only as many as needed to give every thread
 *       several tasks (each chunk re-packs its W block, so fewer is cheaper).
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
    /** Rows of A per sweep: an MC × KC slice of A (120 KiB) stays in L2 while every micro-panel passes over it. */
    static final int MC = Integer.getInteger("dictum.cpu.gemm.mc", 20 * MR);

    /**
     * Per-thread scratch, reused across calls: one KC × NC packed block, one row of KC, and the tile the
     * micro-kernel's accumulators leave through.
     */
    private static final ThreadLocal<float[][]> SCRATCH = ThreadLocal.withInitial(
            () -> new float[][] {new float[KC * NC], new float[KC], new float[GemmKernel.ACC]});

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
        ComputePool.parallelFor(nBlocks * chunks, t -> {
            int nb = t % nBlocks;
            int ch = t / nBlocks;
            int m0 = ch * tilesPerChunk * MR;
            int m1 = Math.min(m, m0 + tilesPerChunk * MR);
            block(a, aOff, lda, m0, m1, nb * NC, Math.min(NC, n - nb * NC), k, w, c, cOff, ldc, e);
        });
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

    /** Rows [m0, m1) × columns [n0, n0+nc) of C, all depths. */
    private static void block(float[] a, int aOff, int lda, int m0, int m1, int n0, int nc, int k,
            GemmPanels w, float[] c, int cOff, int ldc, KernelEpilogue e) {
        float[][] scratch = SCRATCH.get();
        float[] panel = scratch[0];
        float[] rowTmp = scratch[1];
        float[] acc = scratch[2];
        int step = depthBlock(k);
        for (int k0 = 0; k0 < k; k0 += step) {
            int kc = Math.min(step, k - k0);
            boolean first = k0 == 0;
            w.pack(n0, nc, k0, kc, panel, rowTmp);
            for (int mc0 = m0; mc0 < m1; mc0 += MC) {
                int mc1 = Math.min(m1, mc0 + MC);
                for (int j = 0; j * PW < nc; j++) {
                    int col = n0 + j * PW;
                    int cols = Math.min(PW, nc - j * PW);
                    int wpOff = j * kc * PW;
                    for (int r = mc0; r < mc1; r += MR) {
                        GemmKernel.tile(kc, a, aOff + r * lda + k0, lda, panel, wpOff, c, cOff + r * ldc + col, ldc,
                                Math.min(MR, mc1 - r), cols, first, e, r, col, acc);
                    }
                }
            }
        }
        if (e.gelu()) {
            // GELU as its own pass over the block while it is still in L2, not in the micro-kernel's
            // store: there it made the store too big for C2 to inline at the twelve call sites, and
            // every accumulator crossing the call was boxed (measured: a fifth of encoder time).
            for (int r = m0; r < m1; r++) {
                Gelu.apply(c, cOff + r * ldc + n0, nc);
            }
        }
    }
}
