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
 * The CPU backend storing what {@link Backend#allocateHalf} gives in f16, as the GPU does (issue 22):
 * after every op that writes such a buffer ({@code project}'s outs, {@code transpose}'s and
 * {@code copy}'s dst) its values are rounded to f16 (nearest even, as the GPU's conversions), so the
 * CPU's cross-attention reads exactly the values the GPU's reads. For tests of what f16 cross K/V
 * change in a model's output, with no GPU.
 */
public final class HalfCrossKvCpu {
    private HalfCrossKvCpu() {
    }

    public static Backend create() {
        CpuBackend cpu = new CpuBackend();
        Set<Buffer> half = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
        return (Backend) Proxy.newProxyInstance(Backend.class.getClassLoader(), new Class<?>[] {Backend.class},
                (proxy, m, args) -> {
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
                                round(cpu, half, p.out());
                            }
                        }
                        case "transpose" -> round(cpu, half, (Buffer) args[3]);
                        case "copy" -> round(cpu, half, (Buffer) args[2]);
                        default -> {
                        }
                    }
                    return result;
                });
    }

    private static void round(CpuBackend cpu, Set<Buffer> half, Buffer b) {
        if (!half.contains(b)) {
            return;
        }
        float[] v = new float[Math.toIntExact(b.floats())];
        cpu.download(b, 0, v, 0, v.length);
        for (int i = 0; i < v.length; i++) {
            v[i] = Rounding.f16(v[i]);
        }
        cpu.upload(v, 0, b, 0, v.length);
    }
}
