package dev.dictum.whisper.testutil;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.MemoryCategory;
import dev.dictum.gpu.cpu.CpuBackend;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * The CPU backend storing what {@link Backend#allocateHalf} gives in f16, as the GPU does (issue 22: the
 * cross K/V and the decoder's self K/V caches): after every op that writes such a buffer its values are
 * rounded to f16 (nearest even, as the GPU's conversions) — the whole buffer after {@code project}'s
 * outs and {@code transpose}'s dst, the values written after {@code copy} (its dst range),
 * {@code kvAppendStep} and {@code projectStep} (the caches' row {@code step[1]}) — so the CPU's attention
 * reads exactly the values the GPU's reads. For tests of what f16 K/V change in a model's output, with
 * no GPU.
 */
public final class HalfKvCpu {
    private HalfKvCpu() {
    }

    public static Backend create() {
        CpuBackend cpu = new CpuBackend();
        Set<Buffer> half = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
        return (Backend) Proxy.newProxyInstance(Backend.class.getClassLoader(), new Class<?>[] {Backend.class},
                (proxy, m, args) -> {
                    if (m.getName().equals("allocateHalf") && args.length == 3) { // a set: each buffer as below
                        Buffer[] set = new Buffer[(Integer) args[1]];
                        for (int i = 0; i < set.length; i++) {
                            set[i] = cpu.allocate((Long) args[0], (MemoryCategory) args[2]);
                            half.add(set[i]);
                        }
                        return set;
                    }
                    if (m.getName().equals("allocateHalf")) {
                        Buffer b = cpu.allocate((Long) args[0], (MemoryCategory) args[1]);
                        half.add(b);
                        return b;
                    }
                    Object result;
                    try {
                        result = m.invoke(cpu, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    switch (m.getName()) {
                        case "project" -> {
                            for (Backend.Projection p : (Backend.Projection[]) args[2]) {
                                round(cpu, half, p.out(), 0, p.out().floats());
                            }
                        }
                        case "transpose" -> round(cpu, half, (Buffer) args[3], 0, ((Buffer) args[3]).floats());
                        case "copy" -> round(cpu, half, (Buffer) args[2], (Long) args[3], (Long) args[4]);
                        // kvAppendStep(src, dst, rowStride, step, count)
                        case "kvAppendStep" -> round(cpu, half, (Buffer) args[1],
                                position(cpu, (Buffer) args[3]) * (Long) args[2], (Integer) args[4]);
                        // projectStep(x, gain, lnBias, normed, q, k, v, keys, values, rowStride, step)
                        case "projectStep" -> {
                            long at = position(cpu, (Buffer) args[10]) * (Long) args[9];
                            long count = ((Backend.Projection) args[5]).w().rows();
                            round(cpu, half, (Buffer) args[7], at, count);
                            round(cpu, half, (Buffer) args[8], at, count);
                        }
                        default -> {
                        }
                    }
                    return result;
                });
    }

    /** The position a step buffer names (int 1, stored as its bits). */
    private static long position(CpuBackend cpu, Buffer step) {
        float[] bits = new float[3];
        cpu.download(step, 0, bits, 0, 3);
        return Float.floatToRawIntBits(bits[1]);
    }

    private static void round(CpuBackend cpu, Set<Buffer> half, Buffer b, long offset, long count) {
        if (!half.contains(b) || count == 0) {
            return;
        }
        float[] v = new float[Math.toIntExact(count)];
        cpu.download(b, offset, v, 0, v.length);
        for (int i = 0; i < v.length; i++) {
            v[i] = Rounding.f16(v[i]);
        }
        cpu.upload(v, 0, b, offset, v.length);
    }
}
