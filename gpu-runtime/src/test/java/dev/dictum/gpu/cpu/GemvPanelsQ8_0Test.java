package dev.dictum.gpu.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dictum.gpu.DType;
import dev.dictum.gpu.HostTensor;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The decoder's Q8_0 panels (issue 21) against the float64 reference of the same quantised weights,
 * at Whisper's decoder shapes and at odd sizes (a partial last panel, one block of depth), with the
 * bias epilogue; outputs past the matrix's rows are never written.
 */
class GemvPanelsQ8_0Test {

    @ParameterizedTest(name = "M={0} K={1} N={2}")
    @CsvSource({
        "1,384,51865", // tiny's vocabulary projection
        "1,768,2304", // small's Q/K/V
        "3,384,200", // beams; N not a multiple of the panel
        "5,32,77", // one block of depth
        "2,1280,5120"}) // large's MLP up
    void matchesTheReference(int m, int k, int n) {
        HostTensor w = TestWeights.random(DType.Q8_0, n, k, 11L * k + n);
        float[] a = TestWeights.activations(m * k, m + 1L);
        float[] bias = TestWeights.activations(n, 5);
        int ldc = n + 3;
        float[] c = new float[m * ldc];
        Arrays.fill(c, MatMulTest.SENTINEL);
        MatMulTest.poison(c, 0, ldc, m, n);
        GemvPanelsQ8_0.of(w).run(a, 0, k, m, c, 0, ldc, KernelEpilogue.of(bias, false));
        int[] rows = Reference.sampleRows(m);
        double[][] ref = Reference.linear(a, 0, k, rows, w, bias);
        Reference.assertAllFinite(c, 0, ldc, m, n);
        assertThat(Reference.relativeError(c, 0, ldc, rows, ref)).as("M=%d K=%d N=%d", m, k, n).isLessThan(MatMulTest.TOL);
        MatMulTest.assertOutsideUntouched(c, 0, ldc, m, n);
    }

    @ParameterizedTest(name = "{0} {1}×{2}")
    @CsvSource({"F16,64,64", "Q8_0,64,48"})
    void refusesWhatItCannotLayOut(DType t, int n, int k) {
        HostTensor w = TestWeights.random(t, n, k, 3);
        assertThatThrownBy(() -> GemvPanelsQ8_0.of(w)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("multiple of 32");
    }
}
