package dev.dictum.gpu.device;

import com.sun.jna.Memory;
import com.sun.jna.Native;

/**
 * A kernel's arguments as {@code kernelParams} wants them: one 8-byte slot per argument holding its
 * value, and an array of pointers to the slots. Types follow the kernel ABI: device pointers and
 * {@code long long} are 8 bytes, {@code int} and {@code float} 4.
 */
public final class KernelArgs {
    private static final int MAX = 16;
    private final long[] values = new long[MAX];
    private final boolean[] wide = new boolean[MAX];
    private int count;

    public KernelArgs ptr(long deviceAddress) {
        return put(deviceAddress, true);
    }

    public KernelArgs i64(long v) {
        return put(v, true);
    }

    public KernelArgs i32(int v) {
        return put(v & 0xffffffffL, false);
    }

    public KernelArgs f32(float v) {
        return put(Float.floatToRawIntBits(v) & 0xffffffffL, false);
    }

    private KernelArgs put(long v, boolean isWide) {
        values[count] = v;
        wide[count] = isWide;
        count++;
        return this;
    }

    public int count() {
        return count;
    }

    /** The params array and its slots in one block: {@code [ptr0 .. ptrN-1][slot0 .. slotN-1]}. */
    Memory toNative() {
        Memory m = new Memory(Math.max(1, count) * 16L);
        long base = com.sun.jna.Pointer.nativeValue(m);
        for (int i = 0; i < count; i++) {
            long slot = count * (long) Native.POINTER_SIZE + i * 8L;
            m.setLong(i * 8L, base + slot);
            if (wide[i]) {
                m.setLong(slot, values[i]);
            } else {
                m.setInt(slot, (int) values[i]);
            }
        }
        return m;
    }
}
