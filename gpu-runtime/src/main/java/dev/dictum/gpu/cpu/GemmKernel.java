package dev.dictum.gpu.cpu;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * The register-blocked GEMM micro-kernel: an MR × ({@value #NR}·L) tile of C, L = lanes, MR = 6 at
 * 512 bits and 4 at 256 ({@link #MR}). Generated code (one variable per accumulator: the Vector API
 * only stays in registers when C2 can see every vector as a separate local).
 *
 * <p>Each k step loads {@value #NR} vectors of the packed W panel and broadcasts MR adjacent scalars
 * of the packed A micro-panel ({@link GemmRows}) into MR·NR accumulators.
 * {@code tile6} and {@code tile4} are that one loop written out for 6 and for 4 rows: with one local
 * per accumulator the row count cannot be a loop or a parameter.
 *
 * <p>History of the shape. On Zen 4 ({@code KernelProbe}, one core, KC = 128, 512-bit, GFLOP/s per
 * CPU-second; peak 116): 6×2 ≈ 88, 4×3 ≈ 88, 4×4 77, 6×3 70, 8×3 68, 6×4 66. Issue 21 measured a
 * generated probe of each shape at 256 bits (6×2 104, 4×2 92, ...), but that probe was not this
 * code: session 12 found the production 6×2 at 256 bits at 47-53 GFLOP/s in {@code KernelProbe}, and
 * its compiled loop (PrintAssembly's raw bytes through objdump) loaded all six broadcasts first, then
 * ran the twelve FMAs with five accumulators kept on the stack (a load, an FMA and a store each, every
 * step: 20 live vectors for 16 ymm registers). The same code read six row streams of A {@code lda}
 * apart, whose offsets C2 kept partly in spilled registers (at 512 bits three {@code vmovq} to port 0
 * per step, beside the FMAs). So A is now packed, and MR is 4 at 256 bits (8 accumulators + 2 panel
 * vectors + 4 broadcasts = 14 registers). {@code KernelProbe}, one thread, kc = 384, per CPU-second
 * (machine loaded, load 8-82): 256 bits 47-53 → 81-85, 512 bits 103-108 → 113-124 (kc = 192-256:
 * 136-147, the panel then in L1; the whole GEMM did not gain from such depth blocks). Unrolling the
 * k loop by two in the source lost at 256 bits (42-67: the second step's broadcasts spill) and was
 * noise at 512. With A packed, 6×2 at 256 bits ({@code -Ddictum.cpu.gemm.mr=6}) still ran at 61-62
 * against 4×2's 82-86 (load 125-162).
 */
final class GemmKernel {

    static final VectorSpecies<Float> F = CpuVectors.F;
    static final int L = CpuVectors.L;
    /**
     * Rows per tile: 6 with 32 registers (512-bit species), 4 with 16 (256-bit): C2 hoists all of a step's
     * broadcasts ahead of its FMAs, so a tile needs MR·NR accumulators + NR panel vectors + MR broadcasts
     * live at once; 6×2 at 256 bits needs 20 of the 16 ymm registers and spilled five accumulators to the
     * stack (a load, FMA and store per step; session 12 read it in the compiled code).
     */
    static final int MR = rows(Integer.getInteger("dictum.cpu.gemm.mr", L >= 16 ? 6 : 4));
    static final int NR = 2;
    /** Packed panel width in floats. */
    static final int PW = NR * L;
    /** Floats of the scratch a tile's accumulators leave through. */
    static final int ACC = MR * PW;

    private GemmKernel() {
    }

    private static int rows(int mr) {
        if (mr != 4 && mr != 6) {
            throw new IllegalArgumentException("dictum.cpu.gemm.mr must be 4 or 6, not " + mr);
        }
        return mr;
    }

    /**
     * C[row0 .., col0 ..] (+)= A[rows, kc] · panel, through the epilogue. {@code ap} holds A's rows as one
     * packed micro-panel at {@code apOff} ({@link GemmRows}: {@link #MR} values per depth, k-major); rows past
     * {@code rows} are zero there and their results are discarded, so there is no row-tail kernel.
     * {@code cb} indexes C at (row0, col0). {@code cols} ≤ PW valid columns. first: the first depth block
     * (apply alpha, bias, residual; C is not read), otherwise C accumulates (GELU is applied by Gemm after
     * the last block). {@code acc}: the caller's scratch of at least {@link #ACC} floats.
     */
    static void tile(int kc, float[] ap, int apOff, float[] wp, int wpOff, float[] c, int cb, int ldc,
            int rows, int cols, boolean first, KernelEpilogue e, int row0, int col0, float[] acc) {
        if (MR == 6) {
            tile6(kc, ap, apOff, wp, wpOff, acc);
        } else {
            tile4(kc, ap, apOff, wp, wpOff, acc);
        }
        for (int r = 0; r < rows; r++) {
            finishRow(acc, r * PW, c, cb + r * ldc, cols, first, e, row0 + r, col0);
        }
    }

    // The accumulators leave through a scratch tile, not as arguments or a return value: a vector passed to
    // a method that C2 does not inline becomes a heap object (KernelAllocationTest: 230 KB a call of a
    // 150-row linear with the residual epilogue, when each went through store/finish).

    private static void tile6(int kc, float[] ap, int apOff, float[] wp, int wpOff, float[] acc) {
        FloatVector c00 = FloatVector.zero(F), c01 = FloatVector.zero(F);
        FloatVector c10 = FloatVector.zero(F), c11 = FloatVector.zero(F);
        FloatVector c20 = FloatVector.zero(F), c21 = FloatVector.zero(F);
        FloatVector c30 = FloatVector.zero(F), c31 = FloatVector.zero(F);
        FloatVector c40 = FloatVector.zero(F), c41 = FloatVector.zero(F);
        FloatVector c50 = FloatVector.zero(F), c51 = FloatVector.zero(F);
        int p = wpOff;
        int q = apOff;
        for (int k = 0; k < kc; k++, p += PW, q += 6) {
            FloatVector w0 = FloatVector.fromArray(F, wp, p);
            FloatVector w1 = FloatVector.fromArray(F, wp, p + L);
            FloatVector b;
            b = FloatVector.broadcast(F, ap[q]);
            c00 = w0.fma(b, c00);
            c01 = w1.fma(b, c01);
            b = FloatVector.broadcast(F, ap[q + 1]);
            c10 = w0.fma(b, c10);
            c11 = w1.fma(b, c11);
            b = FloatVector.broadcast(F, ap[q + 2]);
            c20 = w0.fma(b, c20);
            c21 = w1.fma(b, c21);
            b = FloatVector.broadcast(F, ap[q + 3]);
            c30 = w0.fma(b, c30);
            c31 = w1.fma(b, c31);
            b = FloatVector.broadcast(F, ap[q + 4]);
            c40 = w0.fma(b, c40);
            c41 = w1.fma(b, c41);
            b = FloatVector.broadcast(F, ap[q + 5]);
            c50 = w0.fma(b, c50);
            c51 = w1.fma(b, c51);
        }
        c00.intoArray(acc, 0 * PW);
        c01.intoArray(acc, 0 * PW + L);
        c10.intoArray(acc, 1 * PW);
        c11.intoArray(acc, 1 * PW + L);
        c20.intoArray(acc, 2 * PW);
        c21.intoArray(acc, 2 * PW + L);
        c30.intoArray(acc, 3 * PW);
        c31.intoArray(acc, 3 * PW + L);
        c40.intoArray(acc, 4 * PW);
        c41.intoArray(acc, 4 * PW + L);
        c50.intoArray(acc, 5 * PW);
        c51.intoArray(acc, 5 * PW + L);
    }

    private static void tile4(int kc, float[] ap, int apOff, float[] wp, int wpOff, float[] acc) {
        FloatVector c00 = FloatVector.zero(F), c01 = FloatVector.zero(F);
        FloatVector c10 = FloatVector.zero(F), c11 = FloatVector.zero(F);
        FloatVector c20 = FloatVector.zero(F), c21 = FloatVector.zero(F);
        FloatVector c30 = FloatVector.zero(F), c31 = FloatVector.zero(F);
        int p = wpOff;
        int q = apOff;
        for (int k = 0; k < kc; k++, p += PW, q += 4) {
            FloatVector w0 = FloatVector.fromArray(F, wp, p);
            FloatVector w1 = FloatVector.fromArray(F, wp, p + L);
            FloatVector b;
            b = FloatVector.broadcast(F, ap[q]);
            c00 = w0.fma(b, c00);
            c01 = w1.fma(b, c01);
            b = FloatVector.broadcast(F, ap[q + 1]);
            c10 = w0.fma(b, c10);
            c11 = w1.fma(b, c11);
            b = FloatVector.broadcast(F, ap[q + 2]);
            c20 = w0.fma(b, c20);
            c21 = w1.fma(b, c21);
            b = FloatVector.broadcast(F, ap[q + 3]);
            c30 = w0.fma(b, c30);
            c31 = w1.fma(b, c31);
        }
        c00.intoArray(acc, 0 * PW);
        c01.intoArray(acc, 0 * PW + L);
        c10.intoArray(acc, 1 * PW);
        c11.intoArray(acc, 1 * PW + L);
        c20.intoArray(acc, 2 * PW);
        c21.intoArray(acc, 2 * PW + L);
        c30.intoArray(acc, 3 * PW);
        c31.intoArray(acc, 3 * PW + L);
    }



    /**
     * One row of the tile from the scratch into C: {@code cols} ≤ PW values through the epilogue (the
     * first depth block: alpha, bias and residual, C not read; the residual may be C itself, read before
     * it is written) or added to C (a later block). Masked, so a column tail reads and writes nothing past
     * the matrix; a full vector's mask is all true. One path for both: a branch whose side the profile has
     * not seen makes C2 drop the compiled kernel mid-call (see CpuAttention#visible).
     */
    private static void finishRow(float[] acc, int ai, float[] c, int ci, int cols, boolean first, KernelEpilogue e,
            int row, int col) {
        for (int j = 0; j < NR && j * L < cols; j++) {
            VectorMask<Float> m = F.indexInRange(j * L, cols);
            int at = ci + j * L;
            int cj = col + j * L;
            FloatVector v = FloatVector.fromArray(F, acc, ai + j * L);
            if (first) {
                if (e.alpha() != 1f) {
                    v = v.mul(e.alpha());
                }
                if (e.bias() != null) {
                    v = v.add(FloatVector.fromArray(F, e.bias(), cj, m));
                }
                if (e.residual() != null) {
                    v = v.add(FloatVector.fromArray(F, e.residual(), e.residualOff() + row * e.ldr() + cj, m));
                }
            } else {
                v = v.add(FloatVector.fromArray(F, c, at, m));
            }
            v.intoArray(c, at, m);
        }
    }
}
