package dev.dictum.gpu.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.gpu.DType;
import dev.dictum.gpu.HostTensor;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link MatMul#linear} and its epilogues against a double reference from the dequantised weights. */
class MatMulTest {

    static final double TOL = 1e-5;
    static final float SENTINEL = 12345.5f;

    /** One product over sub-matrices: A at (aOff, lda ≥ K), C at (cOff, ldc ≥ N); checks C around the window stays untouched. */
    static void check(DType t, int m, int k, int n, long seed, boolean strided) {
        HostTensor w = TestWeights.random(t, n, k, seed);
        int lda = strided ? k + 5 : k;
        int aOff = strided ? 3 : 0;
        int ldc = strided ? n + 3 : n;
        int cOff = strided ? 7 : 0;
        float[] a = TestWeights.activations(aOff + m * lda, seed + 1);
        float[] bias = TestWeights.activations(n, seed + 2);
        float[] c = new float[cOff + m * ldc + 4];
        Arrays.fill(c, SENTINEL);
        poison(c, cOff, ldc, m, n);
        MatMul.linear(a, aOff, lda, m, w, bias, c, cOff, ldc);
        int[] rows = Reference.sampleRows(m);
        double[][] ref = Reference.linear(a, aOff, lda, rows, w, bias);
        Reference.assertAllFinite(c, cOff, ldc, m, n);
        assertThat(Reference.relativeError(c, cOff, ldc, rows, ref)).as("%s M=%d K=%d N=%d", t, m, k, n).isLessThan(TOL);
        assertOutsideUntouched(c, cOff, ldc, m, n);
    }

    static void poison(float[] c, int cOff, int ldc, int m, int n) {
        for (int i = 0; i < m; i++) {
            Arrays.fill(c, cOff + i * ldc, cOff + i * ldc + n, Float.NaN);
        }
    }

    static void assertOutsideUntouched(float[] c, int cOff, int ldc, int m, int n) {
        for (int p = 0; p < c.length; p++) {
            int rel = p - cOff;
            boolean inside = rel >= 0 && rel / ldc < m && rel % ldc < n;
            if (!inside && c[p] != SENTINEL) {
                assertThat(c[p]).as("C[%d] outside the output window was written", p).isEqualTo(SENTINEL);
            }
        }
    }

    static Stream<Arguments> oddShapes() {
        Stream.Builder<Arguments> b = Stream.builder();
        for (DType t : DType.values()) {
            int[] ks = t.isQuantized() ? new int[] {64, 96} : new int[] {33};
            for (int k : ks) {
                for (int m : new int[] {1, 3, 17}) {
                    for (int n : new int[] {1, 7, 129}) {
                        b.add(Arguments.of(t, m, k, n));
                    }
                }
            }
        }
        return b.build();
    }

    @ParameterizedTest(name = "{0} M={1} K={2} N={3}")
    @MethodSource("oddShapes")
    void oddShapesWithStrides(DType t, int m, int k, int n) {
        check(t, m, k, n, 1000L * m + 31L * k + n, true);
    }

    static Stream<Arguments> whisperShapes() {
        return Stream.of(
                // Encoder (GEMM path), every dtype at the tiny model's width, and the wider widths in f32/f16/q5.
                Arguments.of(DType.F32, 1500, 384, 384), Arguments.of(DType.F16, 1500, 384, 1536),
                Arguments.of(DType.BF16, 1500, 384, 384), Arguments.of(DType.Q8_0, 1500, 384, 384),
                Arguments.of(DType.Q5_0, 1500, 384, 384), Arguments.of(DType.Q5_1, 1500, 384, 384),
                Arguments.of(DType.Q4_0, 1500, 384, 384), Arguments.of(DType.I8, 1500, 384, 384),
                Arguments.of(DType.F32, 1500, 512, 130), Arguments.of(DType.F16, 1500, 768, 100),
                Arguments.of(DType.Q5_1, 1500, 1024, 64), Arguments.of(DType.F32, 1500, 1280, 64),
                Arguments.of(DType.Q8_0, 1500, 5120, 40),
                // Decoder (streaming path): vocab projections, beams, every K.
                Arguments.of(DType.F32, 1, 384, 51865), Arguments.of(DType.F16, 5, 384, 51865),
                Arguments.of(DType.Q8_0, 2, 384, 51866), Arguments.of(DType.Q5_0, 1, 512, 51865),
                Arguments.of(DType.Q5_1, 1, 768, 2048), Arguments.of(DType.Q4_0, 5, 1024, 1024),
                Arguments.of(DType.BF16, 2, 1280, 1280), Arguments.of(DType.I8, 5, 1280, 5120),
                Arguments.of(DType.F16, 16, 1280, 512), Arguments.of(DType.F32, 2, 5120, 1280));
    }

    @ParameterizedTest(name = "{0} M={1} K={2} N={3}")
    @MethodSource("whisperShapes")
    void whisperShapes(DType t, int m, int k, int n) {
        check(t, m, k, n, 7L * m + k + 13L * n, false);
    }

    @Test
    void depthBlocksAreFewAndEven() {
        for (int k = 1; k <= 6000; k++) {
            int kc = Gemm.depthBlock(k);
            int blocks = (k + kc - 1) / kc;
            int last = k - (blocks - 1) * kc;
            assertThat(kc <= Gemm.KC && (kc % 32 == 0 || kc >= k)).as("k=%d: kc=%d", k, kc).isTrue();
            assertThat(blocks).as("k=%d: the fewest blocks", k).isEqualTo((k + Gemm.KC - 1) / Gemm.KC);
            assertThat(last).as("k=%d: the last block after blocks of %d", k, kc).isGreaterThanOrEqualTo(kc - 32 * blocks);
        }
        assertThat(Gemm.depthBlock(384)).isEqualTo(384);
        assertThat(Gemm.depthBlock(768)).isEqualTo(384);
        assertThat(Gemm.depthBlock(1280)).isEqualTo(448);
    }

    @ParameterizedTest(name = "M={0}")
    @org.junit.jupiter.params.provider.ValueSource(ints = {1, 5, 23, 300})
    void geluAndResidualEpilogues(int m) {
        int k = 96;
        int n = 200;
        for (DType t : List.of(DType.F32, DType.Q5_1)) {
            HostTensor w = TestWeights.random(t, n, k, m + t.ordinal());
            float[] a = TestWeights.activations(m * k, 5);
            float[] bias = TestWeights.activations(n, 6);
            int[] rows = Reference.sampleRows(m);
            double[][] ref = Reference.linear(a, 0, k, rows, w, bias);

            float[] c = new float[m * n];
            Arrays.fill(c, Float.NaN);
            MatMul.linearGelu(a, 0, k, m, w, bias, c, 0, n);
            double[][] refGelu = new double[rows.length][n];
            for (int r = 0; r < rows.length; r++) {
                for (int j = 0; j < n; j++) {
                    refGelu[r][j] = Reference.gelu(ref[r][j]);
                }
            }
            Reference.assertAllFinite(c, 0, n, m, n);
            assertThat(Reference.relativeError(c, 0, n, rows, refGelu)).as("gelu %s", t).isLessThan(TOL);

            // Residual, in place: C starts as the residual stream and ends as residual + A·Wᵀ + b.
            float[] residual = TestWeights.activations(m * n, 7);
            float[] stream = residual.clone();
            MatMul.linearResidual(a, 0, k, m, w, bias, stream, 0, n, stream, 0, n);
            double[][] refRes = new double[rows.length][n];
            for (int r = 0; r < rows.length; r++) {
                for (int j = 0; j < n; j++) {
                    refRes[r][j] = ref[r][j] + residual[rows[r] * n + j];
                }
            }
            assertThat(Reference.relativeError(stream, 0, n, rows, refRes)).as("residual in place %s", t).isLessThan(TOL);

            // Residual into a separate, strided output.
            float[] out = new float[2 + m * (n + 1)];
            Arrays.fill(out, Float.NaN);
            MatMul.linearResidual(a, 0, k, m, w, null, residual, 0, n, out, 2, n + 1);
            double[][] refNoBias = Reference.linear(a, 0, k, rows, w, null);
            for (int r = 0; r < rows.length; r++) {
                for (int j = 0; j < n; j++) {
                    refNoBias[r][j] += residual[rows[r] * n + j];
                }
            }
            assertThat(Reference.relativeError(out, 2, n + 1, rows, refNoBias)).as("residual strided %s", t).isLessThan(TOL);
        }
    }

    @Test
    void perHeadSliceOfAWiderActivation() {
        // A is [T, 384]; a head's 64 columns at offset 128 multiply a [64 → 96] weight without copying.
        int t = 40;
        HostTensor w = TestWeights.random(DType.F16, 96, 64, 3);
        float[] a = TestWeights.activations(t * 384, 4);
        float[] c = new float[t * 96];
        MatMul.linear(a, 128, 384, t, w, null, c, 0, 96);
        int[] rows = Reference.sampleRows(t);
        assertThat(Reference.relativeError(c, 0, 96, rows, Reference.linear(a, 128, 384, rows, w, null))).isLessThan(TOL);
    }

    @Test
    void deterministicAndRaceFreeUnderConcurrentCalls() throws Exception {
        record Case(HostTensor w, float[] a, int m, float[] bias) {
        }
        List<Case> cases = List.of(
                new Case(TestWeights.random(DType.Q8_0, 384, 384, 1), TestWeights.activations(300 * 384, 2), 300, TestWeights.activations(384, 3)),
                new Case(TestWeights.random(DType.F16, 3000, 384, 4), TestWeights.activations(5 * 384, 5), 5, null),
                new Case(TestWeights.random(DType.F32, 129, 1280, 6), TestWeights.activations(61 * 1280, 7), 61, null),
                new Case(TestWeights.random(DType.Q4_0, 2000, 512, 8), TestWeights.activations(512, 9), 1, null));
        float[][] serial = new float[cases.size()][];
        for (int i = 0; i < cases.size(); i++) {
            Case cs = cases.get(i);
            int n = (int) cs.w().dim(0);
            serial[i] = new float[cs.m() * n];
            MatMul.linearGelu(cs.a(), 0, (int) cs.w().dim(1), cs.m(), cs.w(), cs.bias(), serial[i], 0, n);
            float[] again = new float[serial[i].length];
            MatMul.linearGelu(cs.a(), 0, (int) cs.w().dim(1), cs.m(), cs.w(), cs.bias(), again, 0, n);
            assertThat(again).as("run-to-run, case %d", i).isEqualTo(serial[i]);
        }
        ExecutorService callers = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> futures = new java.util.ArrayList<>();
            for (int th = 0; th < 4; th++) {
                int shift = th;
                futures.add(callers.submit(() -> {
                    for (int rep = 0; rep < 3; rep++) {
                        for (int j = 0; j < cases.size(); j++) {
                            int i = (j + shift) % cases.size();
                            Case cs = cases.get(i);
                            int n = (int) cs.w().dim(0);
                            float[] out = new float[cs.m() * n];
                            Arrays.fill(out, Float.NaN);
                            MatMul.linearGelu(cs.a(), 0, (int) cs.w().dim(1), cs.m(), cs.w(), cs.bias(), out, 0, n);
                            assertThat(out).as("concurrent, case %d", i).isEqualTo(serial[i]);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            callers.shutdownNow();
        }
    }
}
