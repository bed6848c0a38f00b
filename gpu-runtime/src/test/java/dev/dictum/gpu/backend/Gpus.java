package dev.dictum.gpu.backend;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.DType;
import dev.dictum.gpu.Epilogue;
import dev.dictum.gpu.HostTensor;
import dev.dictum.gpu.Weight;
import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.gpu.cpu.TestWeights;
import dev.dictum.gpu.discovery.GpuRuntimes;
import dev.dictum.gpu.discovery.RuntimeProbe;
import dev.dictum.gpu.discovery.ScanInputs;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * GPU backends for tests, one per API for the whole run; a test on a machine without that GPU is
 * skipped with "skipped: no GPU". Also the helpers every kernel test uses: its cases on every API, poison and
 * sentinels, random f16 vectors.
 */
public final class Gpus {
    private static final Map<String, RuntimeProbe> PROBES = new ConcurrentHashMap<>();
    private static final Map<String, GpuBackend> OPEN = new ConcurrentHashMap<>();
    /** The APIs every GPU test runs its cases on, in this order. */
    private static final List<String> APIS = List.of("cuda", "hip");
    /** Floats after every output that no kernel may touch. */
    static final int GUARD = 64;
    static final float SENTINEL = 1234.5678f;

    private Gpus() {
    }

    public static RuntimeProbe probe(String api) {
        RuntimeProbe p = PROBES.computeIfAbsent(api, a -> GpuRuntimes.probe(a, ScanInputs.current(null)));
        assumeTrue(p.usable(), "skipped: no GPU (" + api + ": " + p.error() + ")");
        return p;
    }

    /** The shared backend of {@code api} ("cuda", "hip"), or the test is skipped. */
    public static GpuBackend backend(String api) {
        RuntimeProbe p = probe(api);
        return OPEN.computeIfAbsent(api, a -> new GpuBackend(p.driver(), 0));
    }

    /**
     * A CUDA backend of its own for the test-only modules attention_portable and gemm_portable (GpuOpsTest's
     * "cuda-portable"), so that the shared "cuda" backend never loads it (GpuRuntimeTest counts the
     * shared backend's modules).
     */
    public static GpuBackend portableAttentionBackend() {
        RuntimeProbe p = probe("cuda");
        return OPEN.computeIfAbsent("cuda-portable", a -> new GpuBackend(p.driver(), 0));
    }

    /**
     * A GPU test's cases on every API, for its {@code @MethodSource}: each case's arguments after the API
     * (the test's first parameter), all of CUDA's cases first, then HIP's.
     */
    static Stream<Arguments> perApi(List<Arguments> cases) {
        return APIS.stream().flatMap(api -> cases.stream()
                .map(c -> Arguments.of(Stream.concat(Stream.of(api), Arrays.stream(c.get())).toArray())));
    }

    /** {@link #perApi(List)} where each case is a shape: its ints are the arguments after the API. */
    static Stream<Arguments> perApi(int[][] shapes) {
        return perApi(Arrays.stream(shapes).map(s -> Arguments.of(IntStream.of(s).boxed().toArray())).toList());
    }

    /** An f16 vector of {@code length} random values (a bias, a layer norm's gain), shaped as a checkpoint's. */
    static HostTensor f16Vector(String name, int length, long seed) {
        HostTensor t = TestWeights.random(DType.F16, 1, length, seed);
        return new HostTensor(name, DType.F16, new long[] {length}, t.data());
    }

    /** An output of {@code floats} poisoned with NaN, followed by {@link #GUARD} sentinel floats. */
    static Buffer poisoned(GpuBackend be, long floats) {
        Buffer b = be.allocate(floats + GUARD);
        be.fill(b, 0, floats, Float.NaN);
        be.fill(b, floats, GUARD, SENTINEL);
        return b;
    }

    /** Downloads {@code floats}, checking that the guard after them still holds the sentinels. */
    static float[] read(Backend be, Buffer b, long floats) {
        float[] all = new float[Math.toIntExact(floats + GUARD)];
        be.download(b, 0, all, 0, all.length);
        for (int i = 0; i < GUARD; i++) {
            if (Float.floatToRawIntBits(all[(int) floats + i]) != Float.floatToRawIntBits(SENTINEL)) {
                throw new AssertionError("kernel wrote past its output: guard float " + i + " is "
                        + all[(int) floats + i]);
            }
        }
        return java.util.Arrays.copyOf(all, (int) floats);
    }

    /** ‖got − want‖ / ‖want‖, infinite if anything is NaN (an element never written). */
    static double relErr(float[] got, float[] want) {
        return SelfTest.relErr(got, want);
    }

    /** The same against a float64 reference. */
    static double relErr(float[] got, double[] want) {
        double num = 0;
        double den = 0;
        for (int i = 0; i < want.length; i++) {
            double d = got[i] - want[i];
            num += Double.isNaN(d) ? Double.POSITIVE_INFINITY : d * d;
            den += want[i] * want[i];
        }
        return Math.sqrt(num / den);
    }

    private static final CpuBackend CPU_REFERENCE = new CpuBackend();

    /**
     * The CPU backend's reference for a GPU linear: x (rows by k) through w and bias (null: none), written
     * over zeros or, for Epilogue.ADD, added onto a copy of {@code initial}.
     */
    static float[] cpuLinear(float[] x, int rows, Weight w, Weight bias, float[] initial, int outLength,
            Epilogue e) {
        CpuBackend cpu = CPU_REFERENCE;
        float[] want = new float[outLength];
        if (e == Epilogue.ADD) {
            System.arraycopy(initial, 0, want, 0, want.length);
        }
        try (Buffer cx = cpu.allocate(x.length); Buffer co = cpu.allocate(want.length)) {
            cpu.upload(x, 0, cx, 0, x.length);
            cpu.upload(want, 0, co, 0, want.length);
            cpu.linear(cx, 0, rows, w, bias, co, 0, e);
            cpu.download(co, 0, want, 0, want.length);
        }
        return want;
    }
}
