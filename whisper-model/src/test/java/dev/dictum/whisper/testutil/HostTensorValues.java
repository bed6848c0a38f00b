package dev.dictum.whisper.testutil;

import dev.dictum.gpu.HostTensor;
import dev.dictum.gpu.cpu.Dequant;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Values of a (small) host tensor as f32, row-major: plain types decoded here with scalar code
 * (quick to JIT in short tests), block and int8 types through the CPU backend's {@link Dequant}.
 */
public final class HostTensorValues {
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private HostTensorValues() {
    }

    public static float[] of(HostTensor t) {
        int n = Math.toIntExact(t.elementCount());
        MemorySegment s = t.data();
        float[] out = new float[n];
        switch (t.dtype()) {
            case F32 -> MemorySegment.copy(s, F32, 0, out, 0, n);
            case F16 -> {
                for (int i = 0; i < n; i++) {
                    out[i] = Float.float16ToFloat(s.get(I16, 2L * i));
                }
            }
            case BF16 -> {
                for (int i = 0; i < n; i++) {
                    out[i] = Float.intBitsToFloat(s.get(I16, 2L * i) << 16);
                }
            }
            default -> {
                int rows = Math.toIntExact(t.dim(0));
                int cols = n / rows;
                for (int r = 0; r < rows; r++) {
                    Dequant.row(t, r, out, r * cols);
                }
            }
        }
        return out;
    }
}
