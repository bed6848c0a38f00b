package dev.dictum.gpu.cpu;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import dev.dictum.gpu.DType;
import dev.dictum.gpu.HostTensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;

/** Random weight tensors of any dtype in off-heap memory (as a mapped model file would give). */
public final class TestWeights {

    private TestWeights() {
    }

    public static HostTensor random(DType t, int rows, int cols, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        long bytes = t.bytesFor((long) rows * cols);
        MemorySegment seg = Arena.global().allocate(Math.max(1, bytes), 64).asSlice(0, bytes);
        MemorySegment scales = null;
        switch (t) {
            case F32 -> {
                for (long i = 0; i < (long) rows * cols; i++) {
                    seg.setAtIndex(JAVA_FLOAT_UNALIGNED, i, gauss(rnd) * 0.05f);
                }
            }
            case F16 -> {
                for (long i = 0; i < (long) rows * cols; i++) {
                    seg.setAtIndex(JAVA_SHORT_UNALIGNED, i, Float.floatToFloat16(gauss(rnd) * 0.05f));
                }
            }
            case BF16 -> {
                for (long i = 0; i < (long) rows * cols; i++) {
                    seg.setAtIndex(JAVA_SHORT_UNALIGNED, i, (short) (Float.floatToRawIntBits(gauss(rnd) * 0.05f) >>> 16));
                }
            }
            case I8 -> {
                for (long i = 0; i < bytes; i++) {
                    seg.set(JAVA_BYTE, i, (byte) rnd.nextInt(256));
                }
                scales = Arena.global().allocate(4L * rows, 64);
                for (int r = 0; r < rows; r++) {
                    scales.setAtIndex(JAVA_FLOAT_UNALIGNED, r, 0.0004f * (1 + rnd.nextFloat()));
                }
            }
            default -> {
                for (long i = 0; i < bytes; i++) {
                    seg.set(JAVA_BYTE, i, (byte) rnd.nextInt(256));
                }
                long blocks = bytes / t.blockBytes();
                for (long b = 0; b < blocks; b++) {
                    long off = b * t.blockBytes();
                    seg.set(JAVA_SHORT_UNALIGNED, off, Float.floatToFloat16(0.002f + 0.004f * rnd.nextFloat()));
                    if (t == DType.Q5_1) {
                        seg.set(JAVA_SHORT_UNALIGNED, off + 2, Float.floatToFloat16(-0.03f + 0.01f * rnd.nextFloat()));
                    }
                }
            }
        }
        return new HostTensor("test." + t, t, new long[] {rows, cols}, seg, scales);
    }

    static float gauss(SplittableRandom rnd) {
        // Sum of 4 uniforms: cheap, bell-shaped, bounded — enough for weights and activations.
        return (float) ((rnd.nextDouble() + rnd.nextDouble() + rnd.nextDouble() + rnd.nextDouble() - 2) * 1.7);
    }

    public static float[] activations(int n, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = gauss(rnd);
        }
        return a;
    }
}
