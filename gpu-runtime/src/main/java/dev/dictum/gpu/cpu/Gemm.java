package dev.dictum.gpu.cpu;

/**
 * Cache-blocked GEMM for many rows of A (the encoder: M = 1500): C[M, N] = epilogue(A · Wᵀ).
 *
 * <p>Blocking, for Zen 4 (32 KiB L1d, 1 MiB L2 per core):
 * <ul>
 *   <li>NC = 4 micro-panels of columns per task: the unit of parallel work and of packing.
 *   <li>KC depth per packed block, so one micro-panel (KC × PW floats) stays in L1 while the
 *       kernel sweeps every MR-row tile of the task's rows over it (A streams from L2/L3 by
 *       broadcast loads, which the prefetchers follow row by row).
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
    /** Multiple of 32 so block-quantised weights pack whole blocks. */
    static final int KC = Integer.getInteger("dictum.cpu.gemm.kc", PW >= 32 ? 128 : 256);

    /** Per-thread packing scratch: one KC × NC block and one row of KC, reused across calls. */
    private static final ThreadLocal<float[][]> SCRATCH =
            ThreadLocal.withInitial(() -> new float[][] {new float[KC * NC], new float[KC]});

    private Gemm() {
    }

    static void run(float[] a, int aOff, int lda, int m, int n, int k, GemmPanels w,
            float[] c, int cOff, int ldc, Epilogue e) {
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

    /** Rows [m0, m1) × columns [n0, n0+nc) of C, all depths. */
    private static void block(float[] a, int aOff, int lda, int m0, int m1, int n0, int nc, int k,
            GemmPanels w, float[] c, int cOff, int ldc, Epilogue e) {
        float[][] scratch = SCRATCH.get();
        float[] panel = scratch[0];
        float[] rowTmp = scratch[1];
        for (int k0 = 0; k0 < k; k0 += KC) {
            int kc = Math.min(KC, k - k0);
            boolean first = k0 == 0;
            boolean last = k0 + kc == k;
            w.pack(n0, nc, k0, kc, panel, rowTmp);
            for (int j = 0; j * PW < nc; j++) {
                int col = n0 + j * PW;
                int cols = Math.min(PW, nc - j * PW);
                int wpOff = j * kc * PW;
                for (int r = m0; r < m1; r += MR) {
                    int rows = Math.min(MR, m1 - r);
                    int ab = aOff + r * lda + k0;
                    int cb = cOff + r * ldc + col;
                    // Rows past the end re-read the last valid row (results discarded): no tail kernel.
                    GemmKernel.tile(kc, a,
                            ab, ab + Math.min(1, rows - 1) * lda, ab + Math.min(2, rows - 1) * lda,
                            ab + Math.min(3, rows - 1) * lda, ab + Math.min(4, rows - 1) * lda,
                            ab + Math.min(5, rows - 1) * lda,
                            panel, wpOff, c,
                            cb, cb + ldc, cb + 2 * ldc, cb + 3 * ldc, cb + 4 * ldc, cb + 5 * ldc,
                            rows, cols, first, last, e, r, col);
                }
            }
        }
    }
}
