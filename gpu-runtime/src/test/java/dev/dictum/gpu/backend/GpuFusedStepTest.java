package dev.dictum.gpu.backend;

import static dev.dictum.gpu.backend.Gpus.poisoned;
import static dev.dictum.gpu.backend.Gpus.read;
import static dev.dictum.gpu.backend.Gpus.relErr;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Backend.Projection;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.DType;
import dev.dictum.gpu.Epilogue;
import dev.dictum.gpu.HostTensor;
import dev.dictum.gpu.Weight;
import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.gpu.cpu.TestWeights;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The decoder step's fused one-row ops (issue 12): {@link Backend#normLinear} (gemv1_f16: the layer
 * norm in the GEMV's prologue, every block normalising x itself) and {@link Backend#projectStep}
 * (gemv3_1_f16: the layer norm, Q/K/V in one launch, K and V written straight into the caches' row
 * step[1]) against the CPU backend's unfused ops (LayerNorm in f32 as CpuLayerNorm, then linear) at
 * ≤ 1e-5, both against float64 (LayerNorm and products in double), at large-v3's (1280), small's
 * (768) and tiny's (384) widths and odd ones (1288, 1000: half2 loads, 999: scalar loads), outputs
 * poisoned with NaN and guarded, cache rows other than step[1] left as they were, twice bit for bit.
 * Shapes past the fused path's limits (the 51866 logits, several rows) take the default and must
 * give the same numbers.
 */
class GpuFusedStepTest {
    private static final CpuBackend CPU = new CpuBackend();
    private static long seed = System.nanoTime();

    static Stream<Arguments> normLinearCases() {
        // rows, n, k: the cross query and MLP up at large-v3/turbo, small and tiny; odd widths; the logits
        // (not fused: too many blocks) and three rows (not fused: the default).
        int[][] shapes = {{1, 1280, 1280}, {1, 5120, 1280}, {1, 768, 768}, {1, 3072, 768}, {1, 384, 384},
            {1, 1536, 384}, {1, 1000, 1288}, {1, 77, 1000}, {1, 33, 999}, {1, 51866, 1280}, {3, 100, 1280}};
        return Gpus.perApi(shapes);
    }

    @ParameterizedTest(name = "{0} rows={1} n={2} k={3}")
    @MethodSource("normLinearCases")
    void normLinearMatchesTheCpusLayerNormThenLinear(String api, int rows, int n, int k) {
        GpuBackend gpu = Gpus.backend(api);
        float[] x = residual(rows * k);
        HostTensor gain = vector(k);
        HostTensor lnBias = vector(k);
        HostTensor w = TestWeights.random(DType.F16, n, k, seed++);
        HostTensor bias = vector(n);
        float[] initial = TestWeights.activations(rows * n, seed++);
        Weight gg = gpu.upload(gain);
        Weight gl = gpu.upload(lnBias);
        Weight gw = gpu.upload(w);
        Weight gb = gpu.upload(bias);
        for (Epilogue e : Epilogue.values()) {
            float[] want = e == Epilogue.ADD ? initial.clone() : new float[rows * n];
            try (Buffer cx = CPU.allocate(x.length); Buffer ch = CPU.allocate(x.length);
                    Buffer co = CPU.allocate(want.length)) {
                CPU.upload(x, 0, cx, 0, x.length);
                CPU.upload(want, 0, co, 0, want.length);
                CPU.layerNorm(cx, rows, k, CPU.upload(gain), CPU.upload(lnBias), ch);
                CPU.linear(ch, 0, rows, CPU.upload(w), CPU.upload(bias), co, 0, e);
                CPU.download(co, 0, want, 0, want.length);
            }
            double[] exact = reference(x, rows, k, gain, lnBias, w, bias, e, initial);
            assertThat(relErr(want, exact)).as("CPU vs float64, epilogue %s", e).isLessThanOrEqualTo(1e-5);
            float[] first = null;
            for (int run = 0; run < 2; run++) {
                try (Buffer gx = gpu.allocate(x.length); Buffer gh = gpu.allocate(x.length);
                        Buffer go = poisoned(gpu, want.length)) {
                    gpu.upload(x, 0, gx, 0, x.length);
                    if (e == Epilogue.ADD) {
                        gpu.upload(initial, 0, go, 0, initial.length);
                    }
                    gpu.normLinear(gx, rows, gg, gl, gh, gw, gb, go, e);
                    float[] got = read(gpu, go, want.length);
                    if (run == 0) {
                        assertThat(relErr(got, want)).as("%s epilogue %s vs the CPU", api, e)
                                .isLessThanOrEqualTo(1e-5);
                        assertThat(relErr(got, exact)).as("%s epilogue %s vs float64", api, e)
                                .isLessThanOrEqualTo(1e-5);
                        first = got;
                    } else {
                        assertThat(Arrays.equals(got, first)).as("%s epilogue %s: second run, same bits", api, e)
                                .isTrue();
                    }
                }
            }
        }
    }

    static Stream<Arguments> oneRowCases() {
        // n, k
        return Gpus.perApi(new int[][] {{1280, 1280}, {1280, 5120}, {51866, 1280}, {1000, 1288}, {77, 1000},
            {33, 999}});
    }

    /** A one-row linear (gemv1_f16 on CUDA) gives gemv_f16's bits exactly: the same sums in the same order. */
    @ParameterizedTest(name = "{0} n={1} k={2}")
    @MethodSource("oneRowCases")
    void aOneRowLinearGivesTheUnfusedBitsExactly(String api, int n, int k) {
        GpuBackend gpu = Gpus.backend(api);
        HostTensor w = TestWeights.random(DType.F16, n, k, seed++);
        HostTensor bias = vector(n);
        float[] x = TestWeights.activations(k, seed++);
        float[] initial = TestWeights.activations(n, seed++);
        Weight gw = gpu.upload(w);
        Weight gb = gpu.upload(bias);
        for (Epilogue e : Epilogue.values()) {
            float[][] got = new float[2][];
            for (int fused = 0; fused < 2; fused++) {
                try (Buffer gx = gpu.allocate(k); Buffer go = poisoned(gpu, n)) {
                    gpu.upload(x, 0, gx, 0, k);
                    if (e == Epilogue.ADD) {
                        gpu.upload(initial, 0, go, 0, n);
                    }
                    gpu.fuseSteps(fused == 1);
                    try {
                        gpu.linear(gx, 0, 1, gw, gb, go, 0, e);
                    } finally {
                        gpu.fuseSteps(true);
                    }
                    got[fused] = read(gpu, go, n);
                }
            }
            assertThat(relErr(got[1], got[0])).as("%s epilogue %s", api, e).isLessThanOrEqualTo(1e-5);
            assertThat(Arrays.equals(got[1], got[0])).as("%s epilogue %s: the same bits", api, e).isTrue();
        }
    }

    static Stream<Arguments> projectStepCases() {
        List<Arguments> cases = new ArrayList<>();
        // n (= k), position: large-v3/turbo, small, tiny; odd widths on every load path; the last row
        int[][] shapes = {{1280, 100}, {768, 3}, {384, 0}, {1288, 447}, {1000, 7}, {999, 5}};
        for (int[] s : shapes) {
            for (boolean fused : new boolean[] {true, false}) {
                cases.add(Arguments.of(s[0], s[1], fused));
            }
        }
        return Gpus.perApi(cases);
    }

    /** projectStep: q, and the cache rows at step[1], as layerNorm + linear on the CPU; nothing else written. */
    @ParameterizedTest(name = "{0} n={1} position={2} fused={3}")
    @MethodSource("projectStepCases")
    void projectStepWritesQAndTheCacheRowsAsTheCpu(String api, int n, int position, boolean fused) {
        GpuBackend gpu = Gpus.backend(api);
        int ctx = 448;
        float[] x = residual(n);
        HostTensor gain = vector(n);
        HostTensor lnBias = vector(n);
        HostTensor[] w = new HostTensor[3];
        HostTensor[] b = {vector(n), null, vector(n)}; // the key has no bias, as Whisper's
        float[][] want = new float[3][n];
        double[][] exact = new double[3][];
        try (Buffer cx = CPU.allocate(n); Buffer ch = CPU.allocate(n); Buffer co = CPU.allocate(n)) {
            CPU.upload(x, 0, cx, 0, n);
            CPU.layerNorm(cx, 1, n, CPU.upload(gain), CPU.upload(lnBias), ch);
            for (int p = 0; p < 3; p++) {
                w[p] = TestWeights.random(DType.F16, n, n, seed++);
                CPU.linear(ch, 0, 1, CPU.upload(w[p]), b[p] == null ? null : CPU.upload(b[p]), co, 0, Epilogue.NONE);
                CPU.download(co, 0, want[p], 0, n);
                exact[p] = reference(x, 1, n, gain, lnBias, w[p], b[p], Epilogue.NONE, null);
            }
        }
        float[] before = TestWeights.activations(ctx * n, seed++); // what the caches hold already
        Projection[] ps = new Projection[3];
        List<Buffer> staging = new ArrayList<>();
        float[] first = null;
        try (Buffer gx = gpu.allocate(n); Buffer gh = gpu.allocate(n); Buffer step = gpu.allocate(3);
                Buffer keys = gpu.allocate((long) ctx * n + Gpus.GUARD);
                Buffer values = gpu.allocate((long) ctx * n + Gpus.GUARD)) {
            gpu.upload(x, 0, gx, 0, n);
            gpu.uploadInts(new int[] {17, position, position + 1}, step, 3);
            for (int p = 0; p < 3; p++) {
                staging.add(poisoned(gpu, n));
                ps[p] = new Projection(gpu.upload(w[p]), b[p] == null ? null : gpu.upload(b[p]), staging.get(p));
            }
            Weight gg = gpu.upload(gain);
            Weight gl = gpu.upload(lnBias);
            for (int run = 0; run < 2; run++) {
                for (Buffer cache : new Buffer[] {keys, values}) {
                    gpu.upload(before, 0, cache, 0, before.length);
                    gpu.fill(cache, (long) position * n, n, Float.NaN); // the row to be written, poisoned
                    gpu.fill(cache, (long) ctx * n, Gpus.GUARD, Gpus.SENTINEL);
                }
                gpu.fill(staging.get(0), 0, n, Float.NaN);
                gpu.fuseSteps(fused);
                try {
                    gpu.projectStep(gx, gg, gl, gh, ps[0], ps[1], ps[2], keys, values, n, step);
                } finally {
                    gpu.fuseSteps(true);
                }
                float[] q = read(gpu, staging.get(0), n);
                float[][] caches = {read(gpu, keys, (long) ctx * n), read(gpu, values, (long) ctx * n)};
                assertThat(relErr(q, want[0])).as("%s query vs the CPU", api).isLessThanOrEqualTo(1e-5);
                assertThat(relErr(q, exact[0])).as("%s query vs float64", api).isLessThanOrEqualTo(1e-5);
                for (int c = 0; c < 2; c++) {
                    float[] row = Arrays.copyOfRange(caches[c], position * n, position * n + n);
                    assertThat(relErr(row, want[c + 1])).as("%s cache %d row %d vs the CPU", api, c, position)
                            .isLessThanOrEqualTo(1e-5);
                    assertThat(relErr(row, exact[c + 1])).as("%s cache %d vs float64", api, c)
                            .isLessThanOrEqualTo(1e-5);
                    for (int i = 0; i < ctx * n; i++) {
                        if (i / n != position && Float.floatToRawIntBits(caches[c][i])
                                != Float.floatToRawIntBits(before[i])) {
                            throw new AssertionError(api + " cache " + c + ": row " + i / n + " (not "
                                    + position + ") changed at " + i % n);
                        }
                    }
                }
                float[] all = concat(q, caches[0], caches[1]);
                if (run == 0) {
                    first = all;
                } else {
                    assertThat(Arrays.equals(all, first)).as("%s second run, same bits", api).isTrue();
                }
            }
        } finally {
            staging.forEach(Buffer::close);
        }
    }

    /**
     * Runs without a GPU: the defaults (Backend.normLinear / projectStep on the CPU backend) against
     * this test's float64 reference, which the GPU cases above rely on.
     */
    @org.junit.jupiter.api.Test
    void theCpuDefaultsMatchTheFloat64Reference() {
        int n = 96;
        int k = 200;
        int ctx = 6;
        int position = 4;
        float[] x = residual(k);
        HostTensor gain = vector(k);
        HostTensor lnBias = vector(k);
        HostTensor w = TestWeights.random(DType.F16, n, k, seed++);
        HostTensor bias = vector(n);
        float[] initial = TestWeights.activations(n, seed++);
        for (Epilogue e : Epilogue.values()) {
            float[] got = e == Epilogue.ADD ? initial.clone() : new float[n];
            try (Buffer cx = CPU.allocate(k); Buffer ch = CPU.allocate(k); Buffer co = CPU.allocate(n)) {
                CPU.upload(x, 0, cx, 0, k);
                CPU.upload(got, 0, co, 0, n);
                CPU.normLinear(cx, 1, CPU.upload(gain), CPU.upload(lnBias), ch, CPU.upload(w), CPU.upload(bias), co, e);
                CPU.download(co, 0, got, 0, n);
            }
            assertThat(relErr(got, reference(x, 1, k, gain, lnBias, w, bias, e, initial))).as("epilogue %s", e)
                    .isLessThanOrEqualTo(1e-6);
        }
        HostTensor sq = TestWeights.random(DType.F16, k, k, seed++);
        try (Buffer cx = CPU.allocate(k); Buffer ch = CPU.allocate(k); Buffer q = CPU.allocate(k);
                Buffer kn = CPU.allocate(k); Buffer vn = CPU.allocate(k); Buffer keys = CPU.allocate(ctx * k);
                Buffer values = CPU.allocate(ctx * k); Buffer step = CPU.allocate(3)) {
            CPU.upload(x, 0, cx, 0, k);
            CPU.uploadInts(new int[] {1, position, position + 1}, step, 3);
            Weight cw = CPU.upload(sq);
            CPU.projectStep(cx, CPU.upload(gain), CPU.upload(lnBias), ch, new Projection(cw, null, q),
                    new Projection(cw, null, kn), new Projection(cw, null, vn), keys, values, k, step);
            double[] want = reference(x, 1, k, gain, lnBias, sq, null, Epilogue.NONE, null);
            float[] all = new float[ctx * k];
            for (Buffer cache : new Buffer[] {keys, values}) {
                CPU.download(cache, 0, all, 0, all.length);
                assertThat(relErr(Arrays.copyOfRange(all, position * k, position * k + k), want))
                        .isLessThanOrEqualTo(1e-6);
                assertThat(Arrays.copyOfRange(all, 0, position * k)).containsOnly(0f);
            }
            float[] got = new float[k];
            CPU.download(q, 0, got, 0, k);
            assertThat(relErr(got, want)).isLessThanOrEqualTo(1e-6);
        }
    }

    /** A residual-stream-like row: a mean far from 0, so the two-pass variance matters. */
    private static float[] residual(int count) {
        float[] x = TestWeights.activations(count, seed++);
        for (int i = 0; i < x.length; i++) {
            x[i] = x[i] * 3 + 5;
        }
        return x;
    }

    /** An f16 vector of {@code count} random values (a gain or a bias). */
    private static HostTensor vector(int count) {
        return Gpus.f16Vector("v", count, seed++);
    }

    private static double f16(HostTensor t, long i) {
        return Float.float16ToFloat(t.data().getAtIndex(JAVA_SHORT_UNALIGNED, i));
    }

    /** epilogue(LayerNorm(x) · wᵀ + bias) (+ initial) in float64, row by row. */
    private static double[] reference(float[] x, int rows, int k, HostTensor gain, HostTensor lnBias, HostTensor w,
            HostTensor bias, Epilogue e, float[] initial) {
        int n = Math.toIntExact(w.rows());
        double[] out = new double[rows * n];
        for (int r = 0; r < rows; r++) {
            double mean = 0;
            for (int c = 0; c < k; c++) {
                mean += x[r * k + c];
            }
            mean /= k;
            double var = 0;
            for (int c = 0; c < k; c++) {
                var += (x[r * k + c] - mean) * (x[r * k + c] - mean);
            }
            double inv = 1 / Math.sqrt(var / k + 1e-5);
            double[] y = new double[k];
            for (int c = 0; c < k; c++) {
                y[c] = (x[r * k + c] - mean) * inv * f16(gain, c) + f16(lnBias, c);
            }
            for (int j = 0; j < n; j++) {
                double v = bias == null ? 0 : f16(bias, j);
                for (int c = 0; c < k; c++) {
                    v += y[c] * f16(w, (long) j * k + c);
                }
                out[r * n + j] = switch (e) {
                    case NONE -> v;
                    case GELU -> 0.5 * v * erfc(-v / Math.sqrt(2));
                    case ADD -> v + initial[r * n + j];
                };
            }
        }
        return out;
    }

    /** erfc to ~1e-12 (GELU's reference): the continued fraction for large |x|, the series near 0. */
    private static double erfc(double x) {
        if (x < 0) {
            return 2 - erfc(-x);
        }
        if (x < 3) {
            double sum = x;
            double term = x;
            for (int i = 1; i < 200; i++) {
                term *= -x * x / i;
                sum += term / (2 * i + 1);
            }
            return 1 - 2 / Math.sqrt(Math.PI) * sum;
        }
        double f = 0;
        for (int i = 60; i >= 1; i--) {
            f = i / 2.0 / (x + f);
        }
        return Math.exp(-x * x) / Math.sqrt(Math.PI) / (x + f);
    }

    private static float[] concat(float[]... parts) {
        int len = 0;
        for (float[] p : parts) {
            len += p.length;
        }
        float[] out = new float[len];
        int at = 0;
        for (float[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
