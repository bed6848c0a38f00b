package dev.dictum.whisper.format.ct2;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/** Little-endian element reads from model.bin slices, which are not aligned. */
final class Ct2Values {
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private Ct2Values() {
    }

    static int int16(MemorySegment s, long index) {
        return s.get(I16, 2 * index);
    }

    static int int32(MemorySegment s, long index) {
        return s.get(I32, 4 * index);
    }

    /** Element {@code index} of a float32, float16 or bfloat16 variable as a float. */
    static float real(Ct2DType type, MemorySegment s, long index) {
        return switch (type) {
            case FLOAT32 -> s.get(F32, 4 * index);
            case FLOAT16 -> Float.float16ToFloat(s.get(I16, 2 * index));
            case BFLOAT16 -> Float.intBitsToFloat(s.get(I16, 2 * index) << 16);
            default -> throw new IllegalArgumentException(type + " is not a real type");
        };
    }

    /** Whether every element of a real-typed slice is +0 or -0. */
    static boolean allZero(Ct2DType type, MemorySegment s) {
        long n = s.byteSize() / type.itemSize;
        for (long i = 0; i < n; i++) {
            if (real(type, s, i) != 0f) {
                return false;
            }
        }
        return true;
    }
}
