package dev.dictum.gpu.cpu;

import dev.dictum.gpu.DType;
import dev.dictum.gpu.HostTensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;

/**
 * Throughput measurements (a plain main, not a test): peak FMA rate, memory bandwidth, GEMM
 * GFLOP/s and GEMV weight GB/s. Prints the median of several timed runs after warm-up.
 * Run: java --add-modules jdk.incubator.vector -cp ... dev.dictum.gpu.cpu.CpuBench [what...]
 */
public final class CpuBench {

    private CpuBench() {
    }

    public static void main(String[] args) throws Exception {
        String what = args.length == 0 ? "peak,bw,gemm,gemv" : String.join(",", args);
        System.out.println("species " + CpuVectors.F + " threads " + ComputePool.THREADS);
        if (what.contains("peak")) {
            peak();
        }
        if (what.contains("bw")) {
            bandwidth();
        }
        if (what.contains("tiny")) {
            for (int i = 0; i < 3; i++) {
                gemm(1500, 384, 1536, DType.F32);
            }
        }
        if (what.contains("gemm")) {
            gemm(1500, 384, 1536, DType.F32);
            gemm(1500, 1280, 5120, DType.F32);
            gemm(1500, 384, 384, DType.F32);
            if (what.contains("gemmq")) {
                gemm(1500, 1280, 5120, DType.F16);
                gemm(1500, 1280, 5120, DType.Q8_0);
                gemm(1500, 1280, 5120, DType.Q5_0);
            }
        }
        if (what.contains("logits")) {
            logits(51866);
        }
        if (what.contains("panels")) {
            // The decoder's f16 panels (the bench's gemv F16 is the row-major path the encoder side uses).
            // q8_0's bound is 36 bytes per 32 weights in its panels against f16's 64; the row-major
            // q8_0 GEMV from the file (what the decoder used before issue 21) beside them.
            for (DType t : new DType[] {DType.F16, DType.Q8_0}) {
                panels(t, 51865, 384);
                panels(t, 51865, 768);
                panels(t, 3072, 768);
            }
            gemv(1, 384, 51865, DType.Q8_0);
            gemv(1, 768, 51865, DType.Q8_0);
        }
        if (what.contains("gemv")) {
            for (DType t : new DType[] {DType.F32, DType.F16, DType.Q8_0, DType.Q5_0, DType.Q5_1, DType.Q4_0, DType.BF16, DType.I8}) {
                gemv(1, 384, 51865, t);
            }
            if (what.contains("gemvm")) {
                gemv(5, 384, 51865, DType.F16);
                gemv(5, 1280, 5120, DType.Q8_0);
            }
        }
    }

    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    static double median(double[] x) {
        double[] s = x.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    static void peak() throws Exception {
        // At the kernels' width only (the species must be a constant): -XX:UseAVX=2 gives the 256-bit peak.
        for (int threads : new int[] {1, 2}) {
            double[] r = new double[5];
            double[] perCpu = new double[5];
            double[] one = new double[1];
            PeakFlops.measure(threads, 5_000_000, one);
            for (int i = 0; i < r.length; i++) {
                r[i] = PeakFlops.measure(threads, 10_000_000, one);
                perCpu[i] = one[0];
            }
            System.out.printf("peak %d-bit %d thread(s): wall %.1f GFLOP/s (median of %d; max %.1f); per CPU-second of one core %.1f GFLOP/s%n",
                    CpuVectors.F.vectorBitSize(), threads, median(r) / 1e9, r.length, Arrays.stream(r).max().getAsDouble() / 1e9,
                    median(perCpu) / 1e9);
        }
        double[] c = new double[5];
        PeakFlops.clockHz(50_000_000);
        for (int i = 0; i < c.length; i++) {
            c[i] = PeakFlops.clockHz(100_000_000);
        }
        System.out.printf("clock (2 dependent ALU ops/iter): %.2f GHz%n", median(c) / 1e9);
    }

    /**
     * The decoder's host work per row of logits (issue 22: five rows a beam-5 step): the log-sum-exp as
     * before session 9 (max, then 51 866 {@code Math.exp} in double) against {@link VectorMath#max} +
     * {@link VectorMath#sumExpShifted}, and a full scan of {@link VectorMath#firstAbove} (what a top-k pass
     * costs once its list is full). Microseconds per row, median of 7 rounds of 200 after warm-up.
     */
    static void logits(int vocab) {
        float[] row = new float[vocab];
        java.util.SplittableRandom r = new java.util.SplittableRandom(22);
        for (int i = 0; i < vocab; i++) {
            row[i] = (float) (r.nextGaussian() * 3);
        }
        double[] old = new double[7];
        double[] now = new double[7];
        double[] scan = new double[7];
        double sink = 0;
        for (int round = -3; round < 7; round++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < 200; i++) {
                float max = Float.NEGATIVE_INFINITY;
                for (float v : row) {
                    max = Math.max(max, v);
                }
                double sum = 0;
                for (float v : row) {
                    sum += Math.exp((double) v - max);
                }
                sink += max + Math.log(sum);
            }
            long t1 = System.nanoTime();
            for (int i = 0; i < 200; i++) {
                float max = VectorMath.max(row, 0, vocab);
                sink += max + Math.log(VectorMath.sumExpShifted(row, 0, vocab, max));
            }
            long t2 = System.nanoTime();
            for (int i = 0; i < 200; i++) {
                sink += VectorMath.firstAbove(row, 0, vocab, 1e9f);
            }
            long t3 = System.nanoTime();
            if (round >= 0) {
                old[round] = (t1 - t0) / 200 / 1e3;
                now[round] = (t2 - t1) / 200 / 1e3;
                scan[round] = (t3 - t2) / 200 / 1e3;
            }
        }
        System.out.printf("logits [%d]: log-sum-exp Math.exp/double %.1f us, vector %.1f us; firstAbove scan %.1f us"
                + " (per row, median of 7; sink %.1f)%n", vocab, median(old), median(now), median(scan), sink);
    }

    /** Sum of a 1 GiB off-heap array with vector loads, 1 and 2 threads: the streaming read rate. */
    static void bandwidth() throws Exception {
        long bytes = 1L << 29;
        MemorySegment seg = Arena.global().allocate(bytes, 64);
        seg.fill((byte) 1);
        for (int threads : new int[] {1, 2}) {
            double[] r = new double[5];
            double[] cpu = new double[5];
            for (int i = -2; i < r.length; i++) {
                long c0 = processCpuNanos();
                double gbs = streamRead(seg, threads);
                if (i >= 0) {
                    r[i] = gbs;
                    cpu[i] = seg.byteSize() / ((processCpuNanos() - c0) * 1e-9) * threads / 1e9;
                }
            }
            System.out.printf("stream read %d thread(s): wall %.1f GB/s (median of 5); CPU-time-normalised %.1f GB/s%n",
                    threads, median(r), median(cpu));
        }
    }

    static double streamRead(MemorySegment seg, int threads) throws Exception {
        long per = seg.byteSize() / threads;
        float[] sinks = new float[threads];
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int id = t;
            ts[t] = new Thread(() -> {
                var s = CpuVectors.F;
                FloatVector a0 = FloatVector.zero(s), a1 = a0, a2 = a0, a3 = a0;
                long end = (id + 1) * per;
                int step = s.vectorByteSize();
                for (long o = id * per; o < end; o += 4L * step) {
                    a0 = a0.add(FloatVector.fromMemorySegment(s, seg, o, ByteOrder.LITTLE_ENDIAN));
                    a1 = a1.add(FloatVector.fromMemorySegment(s, seg, o + step, ByteOrder.LITTLE_ENDIAN));
                    a2 = a2.add(FloatVector.fromMemorySegment(s, seg, o + 2L * step, ByteOrder.LITTLE_ENDIAN));
                    a3 = a3.add(FloatVector.fromMemorySegment(s, seg, o + 3L * step, ByteOrder.LITTLE_ENDIAN));
                }
                sinks[id] = a0.add(a1).add(a2).add(a3).reduceLanes(VectorOperators.ADD);
            });
        }
        long t0 = System.nanoTime();
        for (Thread t : ts) {
            t.start();
        }
        for (Thread t : ts) {
            t.join();
        }
        return seg.byteSize() / ((System.nanoTime() - t0) * 1e-9) / 1e9;
    }

    static void gemm(int m, int k, int n, DType t) {
        HostTensor w = TestWeights.random(t, n, k, 1);
        float[] a = TestWeights.activations(m * k, 2);
        float[] c = new float[m * n];
        float[] bias = TestWeights.activations(n, 3);
        double flops = 2.0 * m * n * k;
        int reps = flops > 5e9 ? 5 : 15;
        double[] r = new double[reps];
        double[] perCpu = new double[reps];
        for (int i = -3; i < reps; i++) {
            long cpu = ComputePool.cpuNanosWithCaller();
            long t0 = System.nanoTime();
            MatMul.linear(a, 0, k, m, w, bias, c, 0, n);
            double s = (System.nanoTime() - t0) * 1e-9;
            if (i >= 0) {
                r[i] = flops / s / 1e9;
                // The pool's own threads' CPU time (nanosecond clocks; no JIT or GC threads): per CPU-second
                // of one core, the figure that load from other processes does not divide.
                perCpu[i] = flops / ((ComputePool.cpuNanosWithCaller() - cpu) * 1e-9) / 1e9;
            }
        }
        System.out.printf("GEMM %s [%dx%d]·[%dx%d]ᵀ: wall %.1f GFLOP/s median (max %.1f) = %.1f ms; per CPU-second of one core %.1f GFLOP/s median (max %.1f), %d threads%n",
                t, m, k, n, k, median(r), Arrays.stream(r).max().getAsDouble(), flops / median(r) / 1e6,
                median(perCpu), Arrays.stream(perCpu).max().getAsDouble(), ComputePool.THREADS);
    }

    static void panels(DType t, int n, int k) {
        HostTensor w = TestWeights.random(t, n, k, 1);
        DecoderPanels p = t == DType.F16 ? GemvPanelsF16.of(w) : GemvPanelsQ8_0.of(w);
        float[] a = TestWeights.activations(k, 2);
        float[] c = new float[n];
        long bytes = w.data().byteSize(); // the file's bytes: the rate a token sees
        double[] r = new double[51];
        long cpu0 = 0;
        for (int i = -30; i < r.length; i++) {
            if (i == 0) {
                cpu0 = processCpuNanos();
            }
            long t0 = System.nanoTime();
            p.run(a, 0, k, 1, c, 0, n, KernelEpilogue.NONE);
            if (i >= 0) {
                r[i] = (System.nanoTime() - t0) * 1e-9;
            }
        }
        double s = median(r);
        double cs = (processCpuNanos() - cpu0) * 1e-9 / r.length / ComputePool.THREADS;
        System.out.printf("%s panels [%dx%d] %.1f MB: wall %.3f ms = %.1f GB/s (best %.1f); CPU-normalised %.1f GB/s%n",
                t, n, k, bytes / 1e6, s * 1e3, bytes / s / 1e9, bytes / Arrays.stream(r).min().getAsDouble() / 1e9, bytes / cs / 1e9);
    }

    static void gemv(int m, int k, int n, DType t) {
        HostTensor w = TestWeights.random(t, n, k, 1);
        float[] a = TestWeights.activations(m * k, 2);
        float[] c = new float[m * n];
        long bytes = w.data().byteSize();
        int reps = 51;
        double[] r = new double[reps];
        long cpu0 = 0;
        for (int i = -30; i < reps; i++) {
            if (i == 0) {
                cpu0 = processCpuNanos();
            }
            long t0 = System.nanoTime();
            MatMul.linear(a, 0, k, m, w, null, c, 0, n);
            double s = (System.nanoTime() - t0) * 1e-9;
            if (i >= 0) {
                r[i] = s;
            }
        }
        double s = median(r);
        // CPU seconds per call spread over all cores: the time it would take with the cores to ourselves.
        double cs = (processCpuNanos() - cpu0) * 1e-9 / reps / ComputePool.THREADS;
        System.out.printf("GEMV M=%d %s [%dx%d] %.1f MB: wall %.3f ms = %.1f GB/s; CPU-normalised %.3f ms = %.1f GB/s%n",
                m, t, n, k, bytes / 1e6, s * 1e3, bytes / s / 1e9, cs * 1e3, bytes / cs / 1e9);
    }
}
