package dev.dictum.gpu.cpu;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Buffer;
import java.util.SplittableRandom;

/**
 * Run in a child JVM by {@link KernelAllocationTest} under compile commands that keep the attention's
 * helpers out of line: self-attention with tiny's six 64-wide heads, 150 queries over 150 keys (the blocked path) and 1 over 448 and 7 over
 * 19 (the direct path), both masks, each until its allocation per call settles. Prints
 * {@code attention <queries>x<keys>/<causal> <first calls' bytes> <settled bytes>}.
 */
public final class AttentionAllocationProbe {
    private AttentionAllocationProbe() {
    }

    public static void main(String[] args) {
        Backend be = new CpuBackend();
        SplittableRandom rnd = new SplittableRandom(14);
        int heads = 6;
        int hd = 64;
        int d = heads * hd;
        for (int[] shape : new int[][] {{150, 150}, {1, 448}, {7, 19}}) { // the blocked and the direct path
            int queries = shape[0];
            int keys = shape[1];
            Buffer q = KernelAllocationTest.random(be, rnd, queries * d);
            Buffer k = KernelAllocationTest.random(be, rnd, keys * d);
            Buffer v = KernelAllocationTest.random(be, rnd, keys * d);
            Buffer out = KernelAllocationTest.random(be, rnd, queries * d);
            for (boolean causal : new boolean[] {false, true}) {
                long[] settled = KernelAllocationTest.settle(() -> be.attention(q, d, 1, queries, k, v, 0,
                        (long) keys * d, d, new int[] {keys}, heads, hd, causal, out));
                System.out.println("attention " + queries + "x" + keys + "/" + causal + " " + settled[0] + " "
                        + settled[1]);
            }
        }
        System.exit(0); // the pool's threads
    }
}
