package dev.dictum.gpu.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.DType;
import dev.dictum.gpu.Epilogue;
import dev.dictum.gpu.Weight;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Issues 21 and 23: once C2 has compiled it, the encoder's GEMM allocates nothing per call. A Vector API
 * value that C2 cannot keep in registers (passed to a method it did not inline) becomes a heap object:
 * session 7's JFR of the app found ~1 GB of such boxes per 30 s encoder pass, 26 GB in 90 s of dictating,
 * and with them hundreds of collections during the pass at the pause; the GEMM's residual epilogue alone
 * allocated 230 KB per 150-row call here. The op runs until its allocation per call settles (the
 * interpreter and C1 box every vector, so the first calls allocate megabytes) and must settle below a few
 * KiB (the task objects of one parallel call), counted over every thread (the pool's helpers too).
 *
 * <p>Self-attention too: until session 9 it settled at 22 KB (sometimes 200 KB) per 150-query call in about
 * half the JVMs, where C2 ran out of its node budget inside one of four inlined copies of the softmax's
 * exponentials in {@code CpuAttention.blocked} and called {@code VectorMath.exp(FloatVector)} out of line
 * (LogCompilation); one call site for the block's four rows ({@code softmaxRows}) fixed it. In session 14's
 * CI it settled at 2.4 MB: C2 had no profile for the exponential's call site and judged it cold; since then no
 * vector crosses a call of the attention's (the last test here holds that without relying on C2's mood).
 * Session 18: the GEMM settled at 2.65 MB a call in one JVM of four (CI too), in the f16 weights' widening
 * ({@code HalfFloats.loadF16} returned a vector that C2 had not inlined); {@code widenF16} is one loop method.
 * Session 19: the decoder's one-row products through the panels, whose widening and output helpers took and
 * returned vectors (14.2 MB a 3072 x 768 call with them declined); now written out in the panel loops.
 */
class KernelAllocationTest {
    static final long SETTLED_BYTES = 8 * 1024;
    /**
     * How long an op may take to settle. Idle, every op settles within seconds. Session 17 read its CI's 2.6 MB
     * a call after 40 s as a C2 starved by other work and raised this from 40 s; session 18 found the widening's
     * boxes above behind it. The margin stays: waiting longer costs nothing when the op settles early.
     */
    private static final long WARM_UP_NANOS = 120_000_000_000L;

    private final Backend be = new CpuBackend();
    private final SplittableRandom rnd = new SplittableRandom(21);

    @Test
    void theEncodersGemmAllocatesNothingOnceCompiled() {
        int rows = 150;
        int n = 384; // tiny's width: every GEMM of the encoder has this form (plus the MLP's 4n)
        Weight w = be.upload(TestWeights.random(DType.F16, n, n, 1));
        Weight bias = be.upload(TestWeights.random(DType.F32, 1, n, 2));
        try (Buffer x = random(rows * n); Buffer residual = random(rows * n); Buffer out = random(rows * n)) {
            for (Epilogue ep : Epilogue.values()) {
                Buffer o = ep == Epilogue.ADD ? residual : out;
                long[] settled = settle(() -> be.linear(x, 0, rows, w, bias, o, 0, ep));
                assertThat(settled[1]).as("bytes allocated per %s linear once compiled (the first calls: %d)", ep,
                        settled[0]).isLessThan(SETTLED_BYTES);
            }
        }
    }

    @Test
    void selfAttentionAllocatesNothingOnceCompiled() {
        int heads = 6;
        int hd = 64; // tiny's heads
        int d = heads * hd;
        for (int[] shape : new int[][] {{150, 150}, {1, 448}, {7, 19}}) { // encoder block, a decoder step, odd
            int queries = shape[0];
            int keys = shape[1];
            try (Buffer q = random(queries * d); Buffer k = random(keys * d); Buffer v = random(keys * d);
                    Buffer out = random(queries * d)) {
                for (boolean causal : new boolean[] {false, true}) {
                    long[] settled = settle(() -> be.attention(q, d, 1, queries, k, v, 0, (long) keys * d, d,
                            new int[] {keys}, heads, hd, causal, out));
                    assertThat(settled[1]).as("bytes per %d-query attention over %d keys (causal %s) once compiled"
                            + " (the first calls: %d)", queries, keys, causal, settled[0]).isLessThan(SETTLED_BYTES);
                }
            }
        }
    }

    /**
     * The rule both tests above depend on, checked where luck cannot help: a child JVM told not to inline
     * the kernels' helpers (the GEMM's row finish, GELU's passes, softmax's rows, the exponential's loop,
     * the lane sum, the f16 widening, and every method of the decoder's panels) must still allocate nothing per
     * call. Every call of those takes arrays and scalars,
     * so C2 declining one costs a call, never a boxed vector. C2 declines on its own whenever it has no
     * profile for a call site (VectorMath.expShifted's comment): session 13's CI found 2.4 MB a 150-query
     * attention with the exponential behind a vector-typed method; this test fails on that code (1.7 MB).
     */
    @Test
    void kernelsAllocateNothingWhenC2InlinesNoneOfTheirHelpers() throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!a.startsWith("-javaagent") && !a.startsWith("-agentlib")) {
                command.add(a);
            }
        }
        command.add("-XX:CompileCommand=quiet");
        for (String m : new String[] {"GemmKernel::finishRow", "Gelu::apply", "Gelu::exponents", "Gelu::finish", "Gelu::gelu",
                "CpuAttention::softmaxRows", "CpuAttention::softmaxRow", "VectorMath::expShiftedSum",
                "VectorMath::expInPlace", "VectorMath::expShifted", "VectorMath::exp", "CpuVectors::sum",
                "HalfFloats::widenF16", "HalfFloats::widenBf16", "Dequant::range", "GemvPanelsF16::*",
                "GemvPanelsQ8_0::*"}) {
            command.add("-XX:CompileCommand=dontinline,dev.dictum.gpu.cpu." + m);
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), KernelAllocationProbe.class.getName()));
        Path log = Files.createTempFile("kernel-allocation", ".txt");
        Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean ended = child.waitFor(3000, TimeUnit.SECONDS); // 21 ops, each settles within WARM_UP_NANOS or fails
        if (!ended) {
            child.destroyForcibly();
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        Files.delete(log);
        assertThat(ended).as("the child ended: %s", out).isTrue();
        assertThat(child.exitValue()).as(out).isZero();
        List<String> lines = out.lines().filter(l -> l.startsWith("linear/") || l.startsWith("attention/")).toList();
        assertThat(lines).as(out).hasSize(3 * Epilogue.values().length + 2 + 6);
        for (String line : lines) {
            String[] f = line.split(" "); // <op> <first calls' bytes> <settled bytes>
            assertThat(Long.parseLong(f[2])).as("bytes per %s call, helpers not inlined (the first calls: %s)", f[0],
                    f[1]).isLessThan(SETTLED_BYTES);
        }
    }

    /** {first calls' bytes per call, the least bytes per call over a round of calls once it settled}. */
    static long[] settle(Runnable op) {
        long first = perCall(op, 3);
        long least = first;
        long start = System.nanoTime();
        while (least >= SETTLED_BYTES && System.nanoTime() - start < WARM_UP_NANOS) {
            least = Math.min(least, perCall(op, 20));
        }
        return new long[] {first, least};
    }

    private static long perCall(Runnable op, int calls) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getTotalThreadAllocatedBytes();
        for (int i = 0; i < calls; i++) {
            op.run();
        }
        return (threads.getTotalThreadAllocatedBytes() - before) / calls;
    }

    private Buffer random(int n) {
        return random(be, rnd, n);
    }

    /** n Gaussian floats in a fresh buffer of be's. */
    static Buffer random(Backend be, SplittableRandom rnd, int n) {
        float[] h = new float[n];
        for (int i = 0; i < n; i++) {
            h[i] = (float) rnd.nextGaussian();
        }
        Buffer b = be.allocate(n);
        be.upload(h, 0, b, 0, n);
        return b;
    }
}
