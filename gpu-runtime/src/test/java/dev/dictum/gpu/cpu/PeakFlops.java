package dev.dictum.gpu.cpu;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Calibration: the FMA throughput this machine actually delivers, and its clock. Runs 16
 * independent FMA chains (enough to hide latency 4 × 2 pipes) per thread on registers only.
 */
public final class PeakFlops {

    private PeakFlops() {
    }

    /**
     * FLOP/s of {@code threads} threads running register-only FMA chains at the kernels' width;
     * {@code perCpuSecond[0]} receives FLOPs per second of CPU time actually given to one thread
     * (the machine is shared: wall time includes time-slices lost to other processes).
     */
    public static double measure(int threads, long iters, double[] perCpuSecond)
            throws InterruptedException {
        double[] out = new double[threads];
        long[] cpu = new long[threads];
        Thread[] ts = new Thread[threads];
        var mx = java.lang.management.ManagementFactory.getThreadMXBean();
        for (int t = 0; t < threads; t++) {
            int id = t;
            ts[t] = new Thread(() -> {
                long c0 = mx.getCurrentThreadCpuTime();
                out[id] = chains(iters);
                cpu[id] = mx.getCurrentThreadCpuTime() - c0;
            });
        }
        long t0 = System.nanoTime();
        for (Thread t : ts) {
            t.start();
        }
        for (Thread t : ts) {
            t.join();
        }
        double sec = (System.nanoTime() - t0) * 1e-9;
        double sink = 0;
        for (double o : out) {
            sink += o;
        }
        if (sink == 42.4242) {
            System.out.println(sink);
        }
        long cpuTotal = 0;
        for (long c : cpu) {
            cpuTotal += c;
        }
        perCpuSecond[0] = threads * (double) iters * 16 * 2 * CpuVectors.L / (cpuTotal * 1e-9);
        return threads * (double) iters * 16 * 2 * CpuVectors.L / sec;
    }

    /**
     * 16 independent FMA chains on registers, at the kernels' own width ({@link CpuVectors#F}: run
     * the JVM with {@code -XX:UseAVX=2} or {@code -Ddictum.cpu.vectorBits=256} for the 256-bit peak).
     * The species must be a compile-time constant for C2 to intrinsify: passed as a parameter, the
     * same loop ran at 2-4 GFLOP/s instead of 120-220 (measured), so there is no species argument.
     */
    private static double chains(long iters) {
        VectorSpecies<Float> s = CpuVectors.F;
        FloatVector m = FloatVector.broadcast(s, 0.999999f), a = FloatVector.broadcast(s, 1e-7f);
        FloatVector v0 = FloatVector.broadcast(s, 1), v1 = v0.add(1), v2 = v0.add(2), v3 = v0.add(3),
                v4 = v0.add(4), v5 = v0.add(5), v6 = v0.add(6), v7 = v0.add(7), v8 = v0.add(8), v9 = v0.add(9),
                v10 = v0.add(10), v11 = v0.add(11), v12 = v0.add(12), v13 = v0.add(13), v14 = v0.add(14), v15 = v0.add(15);
        for (long i = 0; i < iters; i++) {
            v0 = v0.fma(m, a); v1 = v1.fma(m, a); v2 = v2.fma(m, a); v3 = v3.fma(m, a);
            v4 = v4.fma(m, a); v5 = v5.fma(m, a); v6 = v6.fma(m, a); v7 = v7.fma(m, a);
            v8 = v8.fma(m, a); v9 = v9.fma(m, a); v10 = v10.fma(m, a); v11 = v11.fma(m, a);
            v12 = v12.fma(m, a); v13 = v13.fma(m, a); v14 = v14.fma(m, a); v15 = v15.fma(m, a);
        }
        return v0.add(v1).add(v2).add(v3).add(v4).add(v5).add(v6).add(v7).add(v8).add(v9).add(v10)
                .add(v11).add(v12).add(v13).add(v14).add(v15).reduceLanes(jdk.incubator.vector.VectorOperators.ADD);
    }

    /** Scalar dependent-add loop: one add per cycle (latency 1 for integer add) → the clock. */
    public static double clockHz(long iters) {
        var mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long t0 = mx.getCurrentThreadCpuTime();
        long x = 0;
        for (long i = 0; i < iters; i++) {
            x = (x + i) ^ (x >>> 7);  // 2 dependent single-cycle ops per iteration
        }
        double sec = (mx.getCurrentThreadCpuTime() - t0) * 1e-9;
        if (x == 42) {
            System.out.println(x);
        }
        return iters * 2 / sec;
    }
}
