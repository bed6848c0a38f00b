package dev.dictum.gpu.backend;

import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.DType;
import dev.dictum.gpu.Epilogue;
import dev.dictum.gpu.HostTensor;
import dev.dictum.gpu.Weight;
import dev.dictum.gpu.cpu.TestWeights;
import dev.dictum.gpu.discovery.GpuRuntimes;
import dev.dictum.gpu.discovery.RuntimeProbe;
import dev.dictum.gpu.discovery.ScanInputs;
import java.util.Arrays;
import java.util.Locale;

/**
 * What one launch costs the host through Dictum's binding (JNA direct mapping, kernelParams built
 * per launch): the time to enqueue a batch of tiny launches (a 1 x 8 x 64 GEMV, a 64-float fill),
 * with the GPU idle at the start of each batch so the queue never fills and the loop measures the
 * host alone. A measurement tool (docs/benchmarks.md), not a test:
 * {@code java -cp ... dev.dictum.gpu.backend.LaunchCostBench [cuda|hip]}.
 */
public final class LaunchCostBench {
    private LaunchCostBench() {
    }

    public static void main(String[] args) {
        String api = args.length > 0 ? args[0] : "cuda";
        RuntimeProbe p = GpuRuntimes.probe(api, ScanInputs.current(null));
        if (!p.usable()) {
            System.out.println("launch cost: no GPU (" + api + ": " + p.error() + ")");
            return;
        }
        GpuBackend gpu = new GpuBackend(p.driver(), 0);
        HostTensor wt = TestWeights.random(DType.F16, 8, 64, 1);
        Weight w = gpu.upload(wt);
        Buffer x = gpu.allocate(64);
        Buffer out = gpu.allocate(64);
        int batch = 200;
        double[] gemv = new double[50];
        double[] fill = new double[50];
        for (int round = -20; round < 50; round++) { // negative rounds warm up the JIT
            gpu.synchronize();
            long t0 = System.nanoTime();
            for (int i = 0; i < batch; i++) {
                gpu.linear(x, 0, 1, w, null, out, 0, Epilogue.NONE);
            }
            long t1 = System.nanoTime();
            gpu.synchronize();
            long t2 = System.nanoTime();
            for (int i = 0; i < batch; i++) {
                gpu.fill(out, 0, 64, 0.5f);
            }
            long t3 = System.nanoTime();
            if (round >= 0) {
                gemv[round] = (t1 - t0) / 1e3 / batch;
                fill[round] = (t3 - t2) / 1e3 / batch;
            }
        }
        gpu.synchronize();
        Arrays.sort(gemv);
        Arrays.sort(fill);
        System.out.printf(Locale.ROOT, "launch cost (%s, host enqueue, median of 50 batches of %d): linear/gemv %.2f us,"
                + " fill %.2f us%n", api, batch, gemv[25], fill[25]);
        gpu.close();
    }
}
