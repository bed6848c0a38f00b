package dev.dictum.gpu.cpu;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dictum.gpu.DType;
import dev.dictum.gpu.HostTensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

class DequantTest {

    /** The ggml / CTranslate2 layouts decoded one value at a time, written from the format descriptions. */
    static float expected(HostTensor w, int row, int col) {
        MemorySegment s = w.data();
        long k = w.elementCount() / w.dim(0);
        long idx = row * k + col;
        DType t = w.dtype();
        switch (t) {
            case F32: return s.getAtIndex(JAVA_FLOAT_UNALIGNED, idx);
            case F16: return Float.float16ToFloat(s.getAtIndex(JAVA_SHORT_UNALIGNED, idx));
            case BF16: return Float.intBitsToFloat(s.getAtIndex(JAVA_SHORT_UNALIGNED, idx) << 16);
            case I8: return s.get(JAVA_BYTE, idx) * w.rowScales().getAtIndex(JAVA_FLOAT_UNALIGNED, row);
            default: break;
        }
        long block = idx / 32;
        int j = (int) (idx % 32);
        long b = block * t.blockBytes();
        float d = Float.float16ToFloat(s.get(JAVA_SHORT_UNALIGNED, b));
        if (t == DType.Q8_0) {
            return d * s.get(JAVA_BYTE, b + 2 + j);
        }
        int qsOff = t == DType.Q4_0 ? 2 : t == DType.Q5_0 ? 6 : 8;
        int byteVal = s.get(JAVA_BYTE, b + qsOff + (j % 16)) & 0xff;
        int nibble = j < 16 ? byteVal & 15 : byteVal >> 4;
        if (t == DType.Q4_0) {
            return d * (nibble - 8);
        }
        long qhOff = t == DType.Q5_0 ? 2 : 4;
        int qh = 0;
        for (int i = 0; i < 4; i++) {
            qh |= (s.get(JAVA_BYTE, b + qhOff + i) & 0xff) << (8 * i);
        }
        int q = nibble | (((qh >>> j) & 1) << 4);
        if (t == DType.Q5_0) {
            return d * (q - 16);
        }
        float m = Float.float16ToFloat(s.get(JAVA_SHORT_UNALIGNED, b + 2));
        return Math.fma(q, d, m);
    }

    @ParameterizedTest
    @EnumSource(DType.class)
    void rowsAndRangesMatchTheLayout(DType t) {
        int k = t.isQuantized() ? 96 : 33;
        int n = 7;
        HostTensor w = TestWeights.random(t, n, k, 42 + t.ordinal());
        float[] out = new float[k + 5];
        for (int r = 0; r < n; r++) {
            java.util.Arrays.fill(out, Float.NaN);
            Dequant.row(w, r, out, 5);
            for (int c = 0; c < k; c++) {
                assertThat(out[5 + c]).as("%s row %d col %d", t, r, c).isEqualTo(expected(w, r, c));
            }
        }
        int col = t.isQuantized() ? 32 : 3;
        int count = t.isQuantized() ? 64 : 30;
        java.util.Arrays.fill(out, Float.NaN);
        Dequant.range(w, 4, col, count, out, 1);
        for (int c = 0; c < count; c++) {
            assertThat(out[1 + c]).isEqualTo(expected(w, 4, col + c));
        }
        assertThat(out[0]).isNaN();
        assertThat(out[1 + count]).isNaN();
    }

    @Test
    void f16IsExactForEveryBitPattern() {
        MemorySegment seg = Arena.ofAuto().allocate(2 * 65536, 64);
        for (int i = 0; i < 65536; i++) {
            seg.setAtIndex(JAVA_SHORT_UNALIGNED, i, (short) i);
        }
        HostTensor w = new HostTensor("all", DType.F16, new long[] {1, 65536}, seg);
        float[] out = new float[65536];
        Dequant.row(w, 0, out, 0);
        for (int i = 0; i < 65536; i++) {
            assertThat(Float.floatToRawIntBits(out[i])).as("f16 0x%04x", i)
                    .isEqualTo(Float.floatToRawIntBits(Float.float16ToFloat((short) i)));
        }
    }

    @Test
    void partialBlocksAreRejected() {
        HostTensor w = TestWeights.random(DType.Q8_0, 2, 64, 1);
        assertThatThrownBy(() -> Dequant.range(w, 0, 16, 32, new float[64], 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Dequant.range(w, 2, 0, 32, new float[64], 0)).isInstanceOf(IndexOutOfBoundsException.class);
    }
}
