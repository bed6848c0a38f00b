package dev.dictum.gpu.cpu;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import dev.dictum.gpu.DType;
import dev.dictum.gpu.HostTensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Dequantises weights (any {@link DType}) from their memory-mapped segment into a heap float[].
 *
 * <p>The tensor is seen as a matrix [dim(0), the product of the rest] (a linear weight [out, in],
 * a conv weight [out, in·kernel]); I8 row scales go with dim(0).
 * Block layouts are ggml's (whisper.cpp), each block 32 values, all little-endian:
 * <ul>
 *   <li>Q8_0: f16 d, int8 q[32]; x = d·q.
 *   <li>Q4_0: f16 d, u8 qs[16]; value j (&lt;16) is the low nibble of qs[j], value j+16 its high
 *       nibble; x = d·(nibble − 8).
 *   <li>Q5_0: f16 d, u32 qh, u8 qs[16]; nibbles as Q4_0, bit j of qh is bit 4 of value j;
 *       x = d·(q5 − 16).
 *   <li>Q5_1: f16 d, f16 m, u32 qh, u8 qs[16]; as Q5_0 but x = d·q5 + m.
 * </ul>
 * I8 (CTranslate2): x = q · rowScales[row].
 */
public final class Dequant {

    private static final ValueLayout.OfFloat F32 = JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfShort I16 = JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt I32 = JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private Dequant() {
    }

    /** Writes row {@code row} (all K values) into {@code dst[dstOff ..]}. */
    public static void row(HostTensor w, long row, float[] dst, int dstOff) {
        range(w, row, 0, Math.toIntExact(w.cols()), dst, dstOff);
    }

    /**
     * Writes values {@code [col, col + count)} of row {@code row} into {@code dst[dstOff ..]}. For
     * block types {@code col} and {@code count} must be multiples of 32 (or reach the row's end).
     */
    public static void range(HostTensor w, long row, int col, int count, float[] dst, int dstOff) {
        long cols = w.cols();
        if (row < 0 || row >= w.dim(0) || col < 0 || count < 0 || col + (long) count > cols) {
            throw new IndexOutOfBoundsException("row " + row + " cols [" + col + ", " + (col + count) + ") of "
                    + w.describe());
        }
        DType t = w.dtype();
        int bs = t.blockSize();
        if (col % bs != 0 || (count % bs != 0 && col + count != cols)) {
            throw new IllegalArgumentException(t + " ranges must be whole blocks of " + bs + ": col " + col
                    + " count " + count);
        }
        MemorySegment seg = w.data();
        long off = row * t.bytesFor(cols) + t.bytesFor(col);
        switch (t) {
            case F32 -> MemorySegment.copy(seg, F32, off, dst, dstOff, count);
            case F16 -> HalfFloats.widenF16(seg, off, count, dst, dstOff);
            case BF16 -> HalfFloats.widenBf16(seg, off, count, dst, dstOff);
            case I8 -> i8(seg, off, count, w.rowScales().getAtIndex(F32, row), dst, dstOff);
            case Q8_0 -> q8_0(seg, off, count / 32, dst, dstOff);
            case Q4_0 -> q4_0(seg, off, count / 32, dst, dstOff);
            case Q5_0 -> q5(seg, off, count / 32, false, dst, dstOff);
            case Q5_1 -> q5(seg, off, count / 32, true, dst, dstOff);
        }
    }

    /** The f32 value of an f16 stored at {@code off}. */
    static float f16At(MemorySegment seg, long off) {
        return Float.float16ToFloat(seg.get(I16, off));
    }

    private static void i8(MemorySegment seg, long off, int count, float scale, float[] dst, int d) {
        for (int i = 0; i < count; i++) {
            dst[d + i] = seg.get(JAVA_BYTE, off + i) * scale;
        }
    }

    private static void q8_0(MemorySegment seg, long off, int blocks, float[] dst, int d) {
        for (int b = 0; b < blocks; b++, off += 34, d += 32) {
            float scale = f16At(seg, off);
            for (int j = 0; j < 32; j++) {
                dst[d + j] = scale * seg.get(JAVA_BYTE, off + 2 + j);
            }
        }
    }

    private static void q4_0(MemorySegment seg, long off, int blocks, float[] dst, int d) {
        for (int b = 0; b < blocks; b++, off += 18, d += 32) {
            float scale = f16At(seg, off);
            for (int j = 0; j < 16; j++) {
                int q = seg.get(JAVA_BYTE, off + 2 + j) & 0xff;
                dst[d + j] = scale * ((q & 0x0f) - 8);
                dst[d + j + 16] = scale * ((q >>> 4) - 8);
            }
        }
    }

    private static void q5(MemorySegment seg, long off, int blocks, boolean withMin, float[] dst, int d) {
        int header = withMin ? 4 : 2;
        int bytes = withMin ? 24 : 22;
        for (int b = 0; b < blocks; b++, off += bytes, d += 32) {
            float scale = f16At(seg, off);
            float min = withMin ? f16At(seg, off + 2) : 0f;
            int bias = withMin ? 0 : 16;
            int qh = seg.get(I32, off + header);
            long qs = off + header + 4;
            for (int j = 0; j < 16; j++) {
                int q = seg.get(JAVA_BYTE, qs + j) & 0xff;
                int lo = (q & 0x0f) | (((qh >>> j) & 1) << 4);
                int hi = (q >>> 4) | (((qh >>> (j + 16)) & 1) << 4);
                // One rounding (fma), as the vectorised kernels do; with min = 0 it equals q·d.
                dst[d + j] = Math.fma(lo - bias, scale, min);
                dst[d + j + 16] = Math.fma(hi - bias, scale, min);
            }
        }
    }
}
