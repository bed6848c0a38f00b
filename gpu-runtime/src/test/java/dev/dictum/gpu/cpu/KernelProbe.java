package dev.dictum.gpu.cpu;

/** Temporary: the micro-kernel alone on L1/L2-resident data, one thread, FLOPs per CPU-second. */
public final class KernelProbe {
    public static void main(String[] args) {
        int kc = Integer.parseInt(args.length > 0 ? args[0] : "128");
        int rowsA = 600;
        float[] a = TestWeights.activations(rowsA * kc, 1);
        float[] wp = TestWeights.activations(kc * GemmKernel.PW, 2);
        float[] c = new float[rowsA * 64];
        var mx = java.lang.management.ManagementFactory.getThreadMXBean();
        for (int rep = 0; rep < 8; rep++) {
            long t0 = mx.getCurrentThreadCpuTime();
            long flops = 0;
            for (int it = 0; it < 200; it++) {
                for (int r = 0; r + 6 <= rowsA; r += 6) {
                    int ab = r * kc;
                    int cb = r * 64;
                    GemmKernel.tile(kc, a, ab, ab + kc, ab + 2 * kc, ab + 3 * kc, ab + 4 * kc, ab + 5 * kc, wp, 0, c,
                            cb, cb + 64, cb + 128, cb + 192, cb + 256, cb + 320, 6, GemmKernel.PW, it == 0, false, Epilogue.NONE, r, 0);
                    flops += 2L * 6 * GemmKernel.PW * kc;
                }
            }
            double s = (mx.getCurrentThreadCpuTime() - t0) * 1e-9;
            System.out.printf("kc=%d: %.1f GFLOP/s per CPU-second%n", kc, flops / s / 1e9);
        }
    }
}
