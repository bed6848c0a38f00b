package dev.dictum.gpu.cpu;

/**
 * The GEMM micro-kernel alone on L1/L2-resident data, one thread, FLOPs per CPU-second of that
 * thread (immune to time-slicing on a shared machine); A is random data read as already packed micro-panels
 * ({@link GemmRows}). Arg: KC (depth per call). Used to pick the
 * tile shape and KC: see {@link Gemm}.
 */
public final class KernelProbe {
    public static void main(String[] args) {
        int kc = Integer.parseInt(args.length > 0 ? args[0] : "128");
        int rowsA = 600;
        float[] a = TestWeights.activations(rowsA * kc, 1);
        float[] wp = TestWeights.activations(kc * GemmKernel.PW, 2);
        float[] c = new float[rowsA * GemmKernel.PW];
        float[] acc = new float[GemmKernel.ACC];
        var mx = java.lang.management.ManagementFactory.getThreadMXBean();
        for (int rep = 0; rep < 30; rep++) {
            long t0 = mx.getCurrentThreadCpuTime();
            long flops = 0;
            for (int it = 0; it < 1000; it++) {
                for (int r = 0; r + GemmKernel.MR <= rowsA; r += GemmKernel.MR) {
                    GemmKernel.tile(kc, a, r * kc, wp, 0, c, r * GemmKernel.PW, GemmKernel.PW, GemmKernel.MR, GemmKernel.PW, it == 0, KernelEpilogue.NONE, r, 0, acc);
                    flops += 2L * GemmKernel.MR * GemmKernel.PW * kc;
                }
            }
            double s = (mx.getCurrentThreadCpuTime() - t0) * 1e-9;
            System.out.printf("kc=%d: %.1f GFLOP/s per CPU-second%n", kc, flops / s / 1e9);
        }
    }
}
