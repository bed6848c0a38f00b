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
 * keys (the blocked path) and 1 over 448 and 7 over 19 (the direct path), both masks; the decoder's one-row
 * products at 3072 x 768 in f16 (both widenings) and q8_0. Prints
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
        // The decoder's one-row products through the panels (issue 21, session 19): small's MLP, 3072 x 768, f16 with
        // the widening this JVM picks and with both forced, q8_0; the biased, GELU and residual epilogues. Small's,
        // not tiny's: the old epilogue's boxes (a vector's toArray per 16 outputs, 15.5 KB a call here even with
        // C2's own choices) stayed under the limit at 1536 outputs.
        int deep = 768;
        int wide = 4 * deep;
        Buffer row = KernelAllocationTest.random(be, rnd, deep);
        Buffer rowOut = KernelAllocationTest.random(be, rnd, wide);
        Weight wideBias = be.upload(TestWeights.random(DType.F32, 1, wide, 4));
        for (DType t : new DType[] {DType.F16, DType.Q8_0}) {
            Weight m = be.upload(TestWeights.random(t, wide, deep, 3));
            for (Epilogue ep : Epilogue.values()) {
                print("linear/one-row/" + t + "/" + ep,
                        KernelAllocationTest.settle(() -> be.linear(row, 0, 1, m, wideBias, rowOut, 0, ep)));
            }
        }
        GemvPanelsF16 f16 = GemvPanelsF16.of(TestWeights.random(DType.F16, wide, deep, 5));
        float[] a = new float[deep];
        float[] c = new float[wide];
        float[] b = new float[wide];
        for (int i = 0; i < deep; i++) {
            a[i] = (float) rnd.nextGaussian();
        }
        KernelEpilogue gelu = KernelEpilogue.of(b, true);
        for (boolean blocks : new boolean[] {false, true}) {
            print("linear/one-row/F16/" + (blocks ? "blocks" : "bits"), KernelAllocationTest.settle(
                    () -> f16.run(a, 0, deep, 1, c, 0, wide, gelu, blocks)));
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
