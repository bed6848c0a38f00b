package dev.dictum.gpu.cpu;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A/B of two builds of the GEMM in one JVM (a plain main, not a test): each build's
 * {@code classes} and {@code test-classes} in its own class loader, {@link CpuBench#gemm} called on
 * one and then the other for tiny's and large's MLP-up shapes, round after round. On a loaded
 * machine the spread between JVMs (±30 % per CPU-second, session 12) hides a 10-20 % change that
 * interleaving within one JVM shows. Args: OLD_ROOT NEW_ROOT CLASSPATH_OF_DEPENDENCIES ROUNDS,
 * each root holding {@code classes/} and {@code test-classes/} (e.g. a copy of gpu-runtime/target
 * at the base commit). Run with the kernels' JVM flags, -XX:ActiveProcessorCount=1 for one core.
 */
public final class GemmAb {

    private GemmAb() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            throw new IllegalArgumentException("usage: GemmAb OLD_ROOT NEW_ROOT DEPENDENCY_CLASSPATH ROUNDS");
        }
        Method[] gemm = new Method[2];
        Object[] f32 = new Object[2];
        for (int i = 0; i < 2; i++) {
            List<URL> urls = new ArrayList<>();
            urls.add(Path.of(args[i], "classes").toUri().toURL());
            urls.add(Path.of(args[i], "test-classes").toUri().toURL());
            for (String d : args[2].split(":")) {
                urls.add(Path.of(d).toUri().toURL());
            }
            // The platform loader as parent: each build sees its own dev.dictum classes, never this one's.
            ClassLoader cl = new URLClassLoader(i == 0 ? "old" : "new", urls.toArray(URL[]::new),
                    ClassLoader.getPlatformClassLoader());
            Class<?> dtype = Class.forName("dev.dictum.gpu.DType", true, cl);
            gemm[i] = Class.forName("dev.dictum.gpu.cpu.CpuBench", true, cl)
                    .getDeclaredMethod("gemm", int.class, int.class, int.class, dtype);
            gemm[i].setAccessible(true);
            f32[i] = dtype.getField("F32").get(null);
        }
        int rounds = Integer.parseInt(args[3]);
        int[][] shapes = {{1500, 384, 1536}, {1500, 1280, 5120}};
        for (int r = 0; r < rounds; r++) {
            for (int[] s : shapes) {
                for (int i = 0; i < 2; i++) {
                    System.out.print((i == 0 ? "old" : "new") + " round " + r + ": ");
                    System.out.flush();
                    gemm[i].invoke(null, s[0], s[1], s[2], f32[i]);
                }
            }
        }
    }
}
