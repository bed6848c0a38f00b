package dev.dictum.gpu.backend;

import static dev.dictum.gpu.backend.Gpus.poisoned;
import static dev.dictum.gpu.backend.Gpus.read;
import static dev.dictum.gpu.backend.Gpus.relErr;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.gpu.Backend.Projection;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.DType;
import dev.dictum.gpu.Epilogue;
import dev.dictum.gpu.HostTensor;
import dev.dictum.gpu.MemoryCategory;
import dev.dictum.gpu.Weight;
import dev.dictum.gpu.cpu.Dequant;
import dev.dictum.gpu.cpu.TestWeights;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 22: a q8_0 file's matrices stay q8_0 on the device. Every weight product over them, against
 * float64 products of the dequantised weights (each d·q in f32, as Dequant.java: exact, an f16 scale
 * times an int8), ‖got − want‖ / ‖want‖, fresh random inputs, outputs NaN-poisoned and guarded, and a
 * second run bit for bit:
 * <ul>
 *   <li>few rows (gemv_q8_0, the blocks read in place: a decoded token, beams, the logits over turbo's
 *       51866 × 1280 token table, also with a draft's 20 rows) within 1e-5 of float64, x at offsets 0, 2
 *       and 1 (16-byte, 8-byte and scalar loads of x);
 *   <li>many rows (the encoder's GEMMs: dequant_q8_0_f16 into the weight scratch, then the f16 GEMM
 *       unchanged) within 1e-5 of float64 over the f16 rounding of the dequantised weights (what the
 *       GEMM reads) and within 1e-3 of float64 over the dequantised weights themselves (the f16 rounding's
 *       cost, ~1.4e-4 for random weights; printed), rows sampled;
 *   <li>the fused one-row ops (gemv1_ln_q8_0, gemv3_1_q8_0, gemv3_1_q8_0kv) and gemv3_q8_0 (project):
 *       within 1e-5, the f16 cache rows within 1e-3.
 * </ul>
 * The same kernels on the CPU: native's GemvQ8EmulatorTest.
 */
class GpuGemvQ8Test {
    private static long seed = System.nanoTime();
    /** Rows of a many-row product whose float64 reference is computed (a 1500 × 5120 × 1280 one is 10 G MACs). */
    private static final int SAMPLED_ROWS = 48;

    static Stream<Arguments> linearCases() {
        List<Arguments> cases = new ArrayList<>();
        // rows, n, k: turbo's / large-v3's projections, MLP up and down, the logits (one row and a draft's
        // 20: gemv_q8_0 in passes of 8 rows, never the scratch); beams; odd sizes (k = 4128: uneven slices of
        // the split row; k = 32: one block a row); the encoder's GEMMs and odd many-row ones (dequant + GEMM)
        int[][] shapes = {{1, 1280, 1280}, {1, 5120, 1280}, {1, 1280, 5120}, {1, 51866, 1280}, {20, 51866, 1280},
            {5, 1280, 5120}, {8, 1000, 1280}, {3, 77, 4128}, {2, 33, 32}, {1, 384, 1536}, {1500, 1280, 1280},
            {1500, 5120, 1280}, {1500, 1280, 5120}, {37, 300, 384}, {13, 37, 96}};
        for (int[] s : shapes) {
            for (int offset : s[0] > KernelChoice.GEMV_MAX_ROWS ? new int[] {0, 3} : new int[] {0, 2, 1}) {
                cases.add(Arguments.of(s[0], s[1], s[2], offset));
            }
        }
        return Gpus.perApi(cases);
    }

    @ParameterizedTest(name = "{0} rows={1} n={2} k={3} x offset={4}")
    @MethodSource("linearCases")
    void linearMatchesFloat64OfTheDequantisedWeights(String api, int rows, int n, int k, int offset) {
        GpuBackend gpu = Gpus.backend(api);
        HostTensor w = TestWeights.random(DType.Q8_0, n, k, seed++);
        HostTensor bias = Gpus.f16Vector("bias", n, seed++);
        float[] x = TestWeights.activations(rows * k, seed++);
        float[] initial = TestWeights.activations(rows * n, seed++);
        Weight gw = gpu.upload(w);
        Weight gb = gpu.upload(bias);
        boolean gemm = KernelChoice.dequantGemm(rows, n, k);
        int[] sampled = sampleRows(rows);
        double[] exactDots = dots(x, k, sampled, w, false);
        double[] f16Dots = gemm ? dots(x, k, sampled, w, true) : null;
        for (Epilogue e : Epilogue.values()) {
            double[] exact = finish(exactDots, sampled, n, bias, e, initial);
            double[] asF16 = gemm ? finish(f16Dots, sampled, n, bias, e, initial) : null;
            float[] first = null;
            for (int run = 0; run < 2; run++) {
                try (Buffer gx = gpu.allocate(x.length + offset); Buffer go = poisoned(gpu, (long) rows * n)) {
                    gpu.upload(x, 0, gx, offset, x.length);
                    if (e == Epilogue.ADD) {
                        gpu.upload(initial, 0, go, 0, initial.length);
                    }
                    gpu.linear(gx, offset, rows, gw, gb, go, 0, e);
                    float[] got = read(gpu, go, (long) rows * n);
                    float[] rowsGot = pick(got, sampled, n);
                    if (run == 0) {
                        if (gemm) {
                            assertThat(relErr(rowsGot, asF16)).as("%s %s: the GEMM vs float64 of its f16 weights", api, e)
                                    .isLessThanOrEqualTo(1e-5);
                            double cost = relErr(rowsGot, exact);
                            System.out.printf("%s rows %d n %d k %d %s: the f16 scratch's rounding costs %.2e%n", api,
                                    rows, n, k, e, cost);
                            assertThat(cost).as("%s %s vs float64", api, e).isLessThanOrEqualTo(1e-3);
                        } else {
                            assertThat(relErr(rowsGot, exact)).as("%s epilogue %s vs float64", api, e)
                                    .isLessThanOrEqualTo(1e-5);
                        }
                        first = got;
                    } else {
                        assertThat(Arrays.equals(got, first)).as("%s epilogue %s: second run, same bits", api, e)
                                .isTrue();
                    }
                }
            }
        }
        long scratch = gpu.memoryReport().byCategory().get(MemoryCategory.WEIGHT_SCRATCH).current();
        if (gemm) {
            assertThat(scratch).as("the weight scratch holds this matrix in f16").isGreaterThanOrEqualTo(2L * n * k);
        }
        assertThat(scratch).as("never the token table").isLessThanOrEqualTo(2 * KernelChoice.DEQUANT_GEMM_MAX_VALUES);
    }

    static Stream<Arguments> projectCases() {
        // rows, n = k: a token's and beam 5's Q/K/V (gemv3_q8_0), the encoder's (dequant + GEMM, one split of x)
        return Gpus.perApi(new int[][] {{1, 1280}, {5, 1280}, {1, 384}, {1500, 1280}, {1500, 384}});
    }

    @ParameterizedTest(name = "{0} rows={1} n=k={2}")
    @MethodSource("projectCases")
    void threeProjectionsMatchFloat64(String api, int rows, int n) {
        GpuBackend gpu = Gpus.backend(api);
        float[] x = TestWeights.activations(rows * n, seed++);
        int[] sampled = sampleRows(rows);
        boolean gemm = KernelChoice.dequantGemm(rows, n, n);
        HostTensor[] w = new HostTensor[3];
        HostTensor[] b = {Gpus.f16Vector("q", n, seed++), null, Gpus.f16Vector("v", n, seed++)}; // no key bias
        Projection[] ps = new Projection[3];
        List<Buffer> outs = new ArrayList<>();
        try {
            for (int p = 0; p < 3; p++) {
                w[p] = TestWeights.random(DType.Q8_0, n, n, seed++);
                outs.add(poisoned(gpu, (long) rows * n));
                ps[p] = new Projection(gpu.upload(w[p]), b[p] == null ? null : gpu.upload(b[p]), outs.get(p));
            }
            double[][] want = new double[3][];
            for (int p = 0; p < 3; p++) { // the GEMM path reads the f16 rounding of the weights
                want[p] = reference(x, n, sampled, w[p], b[p], Epilogue.NONE, null, gemm);
            }
            try (Buffer gx = gpu.allocate(x.length)) {
                gpu.upload(x, 0, gx, 0, x.length);
                float[][] first = new float[3][];
                for (int run = 0; run < 2; run++) {
                    for (Buffer o : outs) {
                        gpu.fill(o, 0, (long) rows * n, Float.NaN);
                    }
                    gpu.project(gx, rows, ps);
                    for (int p = 0; p < 3; p++) {
                        float[] got = read(gpu, outs.get(p), (long) rows * n);
                        if (run == 0) {
                            assertThat(relErr(pick(got, sampled, n), want[p])).as("%s projection %d", api, p)
                                    .isLessThanOrEqualTo(1e-5);
                            first[p] = got;
                        } else {
                            assertThat(Arrays.equals(got, first[p])).as("%s projection %d: same bits", api, p).isTrue();
                        }
                    }
                }
            }
        } finally {
            outs.forEach(Buffer::close);
        }
    }

    static Stream<Arguments> oneRowCases() {
        // n, k: fused (KernelChoice.normLinearFused: tiny's and small's shapes, an odd n) and not (turbo's:
        // layer_norm_f32 + gemv_q8_0)
        return Gpus.perApi(new int[][] {{384, 384}, {1536, 384}, {768, 768}, {100, 992}, {1280, 1280}, {5120, 1280}});
    }

    @ParameterizedTest(name = "{0} n={1} k={2}")
    @MethodSource("oneRowCases")
    void normLinearMatchesFloat64(String api, int n, int k) {
        GpuBackend gpu = Gpus.backend(api);
        float[] x = residual(k);
        HostTensor gain = Gpus.f16Vector("gain", k, seed++);
        HostTensor lnBias = Gpus.f16Vector("lnBias", k, seed++);
        HostTensor w = TestWeights.random(DType.Q8_0, n, k, seed++);
        HostTensor bias = Gpus.f16Vector("bias", n, seed++);
        float[] initial = TestWeights.activations(n, seed++);
        Weight gg = gpu.upload(gain);
        Weight gl = gpu.upload(lnBias);
        Weight gw = gpu.upload(w);
        Weight gb = gpu.upload(bias);
        float[] y = layerNorm(x, gain, lnBias);
        for (Epilogue e : Epilogue.values()) {
            double[] want = reference(y, k, new int[] {0}, w, bias, e, initial, false);
            float[] first = null;
            for (int run = 0; run < 2; run++) {
                try (Buffer gx = gpu.allocate(k); Buffer gh = gpu.allocate(k); Buffer go = poisoned(gpu, n)) {
                    gpu.upload(x, 0, gx, 0, k);
                    if (e == Epilogue.ADD) {
                        gpu.upload(initial, 0, go, 0, n);
                    }
                    gpu.normLinear(gx, 1, gg, gl, gh, gw, gb, go, e);
                    float[] got = read(gpu, go, n);
                    if (run == 0) {
                        assertThat(relErr(got, want)).as("%s epilogue %s", api, e).isLessThanOrEqualTo(1e-5);
                        first = got;
                    } else {
                        assertThat(Arrays.equals(got, first)).as("%s epilogue %s: same bits", api, e).isTrue();
                    }
                }
            }
        }
    }

    static Stream<Arguments> projectStepCases() {
        List<Arguments> cases = new ArrayList<>();
        for (int n : new int[] {1280, 384, 992}) {
            for (boolean half : new boolean[] {true, false}) {
                for (boolean fused : new boolean[] {true, false}) {
                    cases.add(Arguments.of(n, half, fused));
                }
            }
        }
        return Gpus.perApi(cases);
    }

    /**
     * projectStep with q8_0 weights (gemv3_1_q8_0kv into f16 caches as the model runs it, gemv3_1_q8_0 into
     * f32 ones; unfused: layer_norm_f32, gemv3_q8_0 and the appends): q and the cache rows at step[1] against
     * float64, every other cache row untouched.
     */
    @ParameterizedTest(name = "{0} n={1} f16 caches={2} fused={3}")
    @MethodSource("projectStepCases")
    void projectStepWritesQAndTheCacheRows(String api, int n, boolean half, boolean fused) {
        GpuBackend gpu = Gpus.backend(api);
        int ctx = 448;
        int position = 101;
        float[] x = residual(n);
        HostTensor gain = Gpus.f16Vector("gain", n, seed++);
        HostTensor lnBias = Gpus.f16Vector("lnBias", n, seed++);
        float[] y = layerNorm(x, gain, lnBias);
        HostTensor[] w = new HostTensor[3];
        HostTensor[] b = {Gpus.f16Vector("q", n, seed++), null, Gpus.f16Vector("v", n, seed++)};
        double[][] want = new double[3][];
        for (int p = 0; p < 3; p++) {
            w[p] = TestWeights.random(DType.Q8_0, n, n, seed++);
            want[p] = reference(y, n, new int[] {0}, w[p], b[p], Epilogue.NONE, null, false);
        }
        long cache = (long) ctx * n;
        List<Buffer> open = new ArrayList<>();
        try {
            Buffer q = poisoned(gpu, n);
            open.add(q);
            Buffer keys = half ? gpu.allocateHalf(cache, MemoryCategory.OTHER) : gpu.allocate(cache);
            Buffer values = half ? gpu.allocateHalf(cache, MemoryCategory.OTHER) : gpu.allocate(cache);
            Buffer gx = gpu.allocate(n);
            Buffer gh = gpu.allocate(n);
            Buffer step = gpu.allocate(3);
            Buffer scratchK = gpu.allocate(n);
            Buffer scratchV = gpu.allocate(n);
            open.addAll(List.of(keys, values, gx, gh, step, scratchK, scratchV));
            gpu.upload(x, 0, gx, 0, n);
            gpu.uploadInts(new int[] {17, position, position + 1}, step, 3);
            Projection pq = new Projection(gpu.upload(w[0]), gpu.upload(b[0]), q);
            Projection pk = new Projection(gpu.upload(w[1]), null, scratchK);
            Projection pv = new Projection(gpu.upload(w[2]), gpu.upload(b[2]), scratchV);
            Weight gg = gpu.upload(gain);
            Weight gl = gpu.upload(lnBias);
            float[] first = null;
            for (int run = 0; run < 2; run++) {
                gpu.fill(q, 0, n, Float.NaN);
                for (Buffer c : new Buffer[] {keys, values}) { // 3.0 everywhere (exact in f16), the row NaN
                    try (Buffer src = gpu.allocate(cache)) {
                        gpu.fill(src, 0, cache, 3.0f);
                        gpu.fill(src, (long) position * n, n, Float.NaN);
                        gpu.copy(src, 0, c, 0, cache);
                    }
                }
                gpu.fuseSteps(fused);
                try {
                    gpu.projectStep(gx, gg, gl, gh, pq, pk, pv, keys, values, n, step);
                } finally {
                    gpu.fuseSteps(true);
                }
                float[] gotQ = read(gpu, q, n);
                assertThat(relErr(gotQ, want[0])).as("%s query", api).isLessThanOrEqualTo(1e-5);
                float[] all = gotQ;
                for (int c = 0; c < 2; c++) {
                    Buffer buf = c == 0 ? keys : values;
                    float[] rows = half ? gpu.downloadHalf(buf, Math.toIntExact(cache)) : download(gpu, buf, cache);
                    float[] row = Arrays.copyOfRange(rows, position * n, position * n + n);
                    assertThat(relErr(row, want[c + 1])).as("%s cache %d row %d", api, c, position)
                            .isLessThanOrEqualTo(half ? 1e-3 : 1e-5);
                    for (int i = 0; i < cache; i++) {
                        if (i / n != position && rows[i] != 3.0f) {
                            throw new AssertionError(api + " cache " + c + ": row " + i / n + " changed at " + i % n);
                        }
                    }
                    all = concat(all, rows);
                }
                if (run == 0) {
                    first = all;
                } else {
                    assertThat(Arrays.equals(all, first)).as("%s second run, same bits", api).isTrue();
                }
            }
        } finally {
            open.forEach(Buffer::close);
        }
    }

    private static float[] download(GpuBackend gpu, Buffer b, long count) {
        float[] out = new float[Math.toIntExact(count)];
        gpu.download(b, 0, out, 0, out.length);
        return out;
    }

    private static float[] concat(float[] a, float[] b) {
        float[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** Every row of a few-row product, else {@link #SAMPLED_ROWS} spread over the rows (first and last among them). */
    private static int[] sampleRows(int rows) {
        if (rows <= SAMPLED_ROWS) {
            return java.util.stream.IntStream.range(0, rows).toArray();
        }
        int[] s = new int[SAMPLED_ROWS];
        for (int i = 0; i < s.length; i++) {
            s[i] = (int) ((long) i * (rows - 1) / (s.length - 1));
        }
        return s;
    }

    private static float[] pick(float[] all, int[] rows, int n) {
        float[] out = new float[rows.length * n];
        for (int i = 0; i < rows.length; i++) {
            System.arraycopy(all, rows[i] * n, out, i * n, n);
        }
        return out;
    }

    /** epilogue(x[r] · wᵀ + bias) (+ initial[r]) in float64 for the given rows of x: {@link #dots}, then {@link #finish}. */
    private static double[] reference(float[] x, int k, int[] rows, HostTensor w, HostTensor bias, Epilogue e,
            float[] initial, boolean f16) {
        return finish(dots(x, k, rows, w, f16), rows, Math.toIntExact(w.rows()), bias, e, initial);
    }

    /**
     * x[r] · wᵀ in float64 for the given rows of x, w as Dequant.java gives it (d·q in f32) or, with
     * {@code f16}, each of those values rounded to f16 (what the weight scratch holds).
     */
    private static double[] dots(float[] x, int k, int[] rows, HostTensor w, boolean f16) {
        int n = Math.toIntExact(w.rows());
        double[] out = new double[rows.length * n];
        float[] wr = new float[k];
        for (int j = 0; j < n; j++) {
            Dequant.row(w, j, wr, 0);
            if (f16) {
                for (int c = 0; c < k; c++) {
                    wr[c] = Float.float16ToFloat(Float.floatToFloat16(wr[c]));
                }
            }
            for (int i = 0; i < rows.length; i++) {
                double v = 0;
                int base = rows[i] * k;
                for (int c = 0; c < k; c++) {
                    v += (double) x[base + c] * wr[c];
                }
                out[i * n + j] = v;
            }
        }
        return out;
    }

    /** dots + bias, then the epilogue (GELU in double, or + initial[r]). */
    private static double[] finish(double[] dots, int[] rows, int n, HostTensor bias, Epilogue e, float[] initial) {
        double[] out = new double[dots.length];
        for (int i = 0; i < rows.length; i++) {
            for (int j = 0; j < n; j++) {
                double v = dots[i * n + j] + (bias == null ? 0 : Float.float16ToFloat(bias.data().getAtIndex(
                        java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED, j)));
                if (e == Epilogue.GELU) {
                    v = 0.5 * v * erfc(-v / Math.sqrt(2));
                } else if (e == Epilogue.ADD) {
                    v += initial[rows[i] * n + j];
                }
                out[i * n + j] = v;
            }
        }
        return out;
    }

    /** erfc in double (Numerical Recipes' erfcc: relative error below 1.2e-7, far under the limits above). */
    private static double erfc(double z) {
        double t = 1 / (1 + 0.5 * Math.abs(z));
        double r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
                + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587
                + t * (-0.82215223 + t * 0.17087277)))))))));
        return z >= 0 ? r : 2 - r;
    }

    /** LayerNorm(x; gain, bias) in float64 as CpuLayerNorm (eps 1e-5), the fused ops' prologue. */
    private static float[] layerNorm(float[] x, HostTensor gain, HostTensor bias) {
        int k = x.length;
        double mean = 0;
        for (float v : x) {
            mean += v;
        }
        mean /= k;
        double var = 0;
        for (float v : x) {
            var += (v - mean) * (v - mean);
        }
        double inv = 1 / Math.sqrt(var / k + 1e-5);
        float[] y = new float[k];
        for (int c = 0; c < k; c++) {
            double g = Float.float16ToFloat(gain.data().getAtIndex(java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED, c));
            double b = Float.float16ToFloat(bias.data().getAtIndex(java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED, c));
            y[c] = (float) ((x[c] - mean) * inv * g + b);
        }
        return y;
    }

    /** A residual-stream-like row: a mean far from 0, so the two-pass variance matters. */
    private static float[] residual(int count) {
        float[] x = TestWeights.activations(count, seed++);
        for (int i = 0; i < x.length; i++) {
            x[i] = x[i] * 3 + 5;
        }
        return x;
    }
}
