package dev.dictum.gpu.cpu;

import dev.dictum.gpu.HostTensor;
import java.util.Arrays;

/**
 * Packs a kc × nc block of the right-hand operand ("W", seen as W[n][k]) into the layout the
 * micro-kernel streams: micro-panels of {@link GemmKernel#PW} columns, each stored k-major
 * ({@code dst[(j·kc + k)·PW + n]}), so one k step of the kernel is {@code NR} contiguous vector
 * loads. Columns past nc are zero so the kernel never needs a column tail inside its loop.
 *
 * <p>Packing also converts: quantised/half weights are dequantised here, once per block, and then
 * reused by every row of A (M = 1500 in the encoder), which is what makes the large-M path
 * compute-bound regardless of the weight dtype.
 */
abstract sealed class GemmPanels {

    static final int PW = GemmKernel.PW;

    /** Fills {@code dst} for columns [n0, n0+nc) and depths [k0, k0+kc); {@code rowTmp} has ≥ kc floats. */
    abstract void pack(int n0, int nc, int k0, int kc, float[] dst, float[] rowTmp);

    /** Scatters one W row segment (kc values of column n, relative nn within the block) into panel layout. */
    static void scatterRow(float[] src, int srcOff, int nn, int kc, float[] dst) {
        int base = (nn / PW) * kc * PW + (nn % PW);
        for (int k = 0; k < kc; k++) {
            dst[base + k * PW] = src[srcOff + k];
        }
    }

    static void zeroPadding(int nc, int kc, float[] dst) {
        int padded = (nc + PW - 1) / PW * PW;
        if (padded == nc) {
            return;
        }
        int j = nc / PW;
        int base = j * kc * PW;
        for (int k = 0; k < kc; k++) {
            Arrays.fill(dst, base + k * PW + nc % PW, base + (k + 1) * PW, 0f);
        }
    }

    /** W is a weight tensor [N, K] of any dtype. */
    static final class Weights extends GemmPanels {
        final HostTensor w;

        Weights(HostTensor w) {
            this.w = w;
        }

        @Override
        void pack(int n0, int nc, int k0, int kc, float[] dst, float[] rowTmp) {
            for (int nn = 0; nn < nc; nn++) {
                Dequant.range(w, n0 + nn, k0, kc, rowTmp, 0);
                scatterRow(rowTmp, 0, nn, kc, dst);
            }
            zeroPadding(nc, kc, dst);
        }
    }

    /**
     * W is a matrix the decoder has already re-laid ({@link DecoderPanels}): its file pages were
     * released when the panels were built, and packing from the panels keeps them released (a draft's
     * logits at every position, ~30 MB of toy-en's file, would otherwise fault back in and count twice).
     */
    static final class FromDecoderPanels extends GemmPanels {
        final DecoderPanels w;

        FromDecoderPanels(DecoderPanels w) {
            this.w = w;
        }

        @Override
        void pack(int n0, int nc, int k0, int kc, float[] dst, float[] rowTmp) {
            int p = w.outputsPerPanel();
            for (int j = 0; j * PW < nc; j++) {
                int col = n0 + j * PW;
                int width = Math.min(PW, nc - j * PW);
                // A micro-panel (PW ≤ P outputs) lies in at most two decoder panels; with the default
                // block width (a multiple of P) always in one.
                int first = Math.min(width, p - col % p);
                w.widenColumns(col, first, k0, kc, dst, j * kc * PW, PW);
                if (first < width) {
                    w.widenColumns(col + first, width - first, k0, kc, dst, j * kc * PW + first, PW);
                }
            }
            zeroPadding(nc, kc, dst);
        }
    }

    /** W[n][k] = b[off + n·ld + k]: a heap matrix used transposed (attention's Q·Kᵀ). */
    static final class Rows extends GemmPanels {
        final float[] b;
        final int off;
        final int ld;

        Rows(float[] b, int off, int ld) {
            this.b = b;
            this.off = off;
            this.ld = ld;
        }

        @Override
        void pack(int n0, int nc, int k0, int kc, float[] dst, float[] rowTmp) {
            for (int nn = 0; nn < nc; nn++) {
                scatterRow(b, off + (n0 + nn) * ld + k0, nn, kc, dst);
            }
            zeroPadding(nc, kc, dst);
        }
    }

    /** W[n][k] = b[off + k·ld + n]: a heap matrix used as is (attention's P·V); rows copy straight in. */
    static final class Columns extends GemmPanels {
        final float[] b;
        final int off;
        final int ld;

        Columns(float[] b, int off, int ld) {
            this.b = b;
            this.off = off;
            this.ld = ld;
        }

        @Override
        void pack(int n0, int nc, int k0, int kc, float[] dst, float[] rowTmp) {
            for (int j = 0; j * PW < nc; j++) {
                int w = Math.min(PW, nc - j * PW);
                int base = j * kc * PW;
                for (int k = 0; k < kc; k++) {
                    System.arraycopy(b, off + (k0 + k) * ld + n0 + j * PW, dst, base + k * PW, w);
                }
            }
            zeroPadding(nc, kc, dst);
        }
    }
}
