package dev.dictum.gpu.cpu;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.DType;
import dev.dictum.gpu.Epilogue;
import dev.dictum.gpu.Weight;
import java.util.SplittableRandom;

/**
 * Run in a child JVM by {@link KernelAllocationTest} under compile commands that keep the kernels' helpers
 * out of line, each op until its allocation per call settles: the encoder's GEMM at tiny's width (150 rows,
 * 384 columns) with every epilogue, and self-attention with tiny's six 64-wide heads, 150 queries over 150
 * keys (the blocked path) and 1 over 448 and 7 over 19 (the direct path), both masks. Prints
 * {@code <op> <first calls' bytes> <settled bytes>} a line.
 */
public final class KernelAllocationProbe {
    private KernelAllocationProbe() {
    }

    public static void main(String[] args) {
        Backend be = new CpuBackend();
        SplittableRandom rnd = new SplittableRandom(14);
        int rows = 150;
        int n = 384;
        Weight w = be.upload(TestWeights.random(DType.F16, n, n, 1));
        Weight bias = be.upload(TestWeights.random(DType.F32, 1, n, 2));
        Buffer x = KernelAllocationTest.random(be, rnd, rows * n);
        Buffer residual = KernelAllocationTest.random(be, rnd, rows * n);
        Buffer y = KernelAllocationTest.random(be, rnd, rows * n);
        for (Epilogue ep : Epilogue.values()) {
            Buffer o = ep == Epilogue.ADD ? residual : y;
            print("linear/" + ep, KernelAllocationTest.settle(() -> be.linear(x, 0, rows, w, bias, o, 0, ep)));
        }
        int heads = 6;
        int hd = 64;
        int d = heads * hd;
        for (int[] shape : new int[][] {{150, 150}, {1, 448}, {7, 19}}) {
            int queries = shape[0];
            int keys = shape[1];
            Buffer q = KernelAllocationTest.random(be, rnd, queries * d);
            Buffer k = KernelAllocationTest.random(be, rnd, keys * d);
            Buffer v = KernelAllocationTest.random(be, rnd, keys * d);
            Buffer out = KernelAllocationTest.random(be, rnd, queries * d);
            for (boolean causal : new boolean[] {false, true}) {
                print("attention/" + queries + "x" + keys + "/" + (causal ? "causal" : "full"),
                        KernelAllocationTest.settle(() -> be.attention(q, d, 1, queries, k, v, 0, (long) keys * d, d,
                                new int[] {keys}, heads, hd, causal, out)));
            }
        }
        System.exit(0); // the pool's threads
    }

    private static void print(String op, long[] settled) {
        System.out.println(op + " " + settled[0] + " " + settled[1]);
    }
}
