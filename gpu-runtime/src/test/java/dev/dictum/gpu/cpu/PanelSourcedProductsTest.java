package dev.dictum.gpu.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dictum.gpu.DType;
import dev.dictum.gpu.Epilogue;
import dev.dictum.gpu.HostTensor;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Once the decoder has re-laid an F16 or Q8_0 matrix into panels (and released its pages of the model file),
 * every later read of that matrix comes from the panels: products with more rows than the panels
 * serve (a draft's logits at every position) and embedding rows. The proof: the source is poisoned
 * with NaN after the panels are built, and the results stay bit-identical to the file's before.
 * (The soak saw the file's ~30 MB of toy-en logits fault back in after such a product, and count twice.)
 */
class PanelSourcedProductsTest {

    @ParameterizedTest(name = "{0} [{1} x {2}], {3} rows, {4}")
    @CsvSource({
        "F16, 1001, 384, 40, NONE", // odd outputs: the last panel part-filled
        "F16, 1536, 384, 17, GELU", // one row past the panels' limit
        "F16, 384, 1536, 33, ADD", // the MLP's down projection's depth: three depth blocks
        "F16, 51865, 64, 24, NONE", // the vocabulary's rows, a narrow model
        "Q8_0, 1001, 384, 40, NONE",
        "Q8_0, 1536, 384, 17, GELU",
        "Q8_0, 384, 1536, 33, ADD",
        "Q8_0, 51865, 64, 24, NONE",
    })
    void largeMProductsAndRowsReadThePanelsNotTheFile(DType dtype, int n, int k, int rows, Epilogue epilogue) {
        HostTensor w = TestWeights.random(dtype, n, k, 31L * n + k);
        CpuWeight weight = CpuWeight.of(w, false);
        float[] bias = epilogue == Epilogue.NONE ? null : randoms(n, 5);
        float[] x = randoms(rows * k, 7);
        float[] residual = randoms(rows * n, 11);

        float[] fromFile = product(x, rows, weight, bias, residual, epilogue);
        float[][] fileRows = new float[3][k];
        int[] picks = {0, n / 2, n - 1};
        for (int i = 0; i < picks.length; i++) {
            weight.row(picks[i], fileRows[i], 0);
        }
        assertThat(weight.builtPanels()).isNull();

        product(randoms(k, 13), 1, weight, bias, randoms(n, 17), epilogue); // a decoder step builds the panels
        assertThat(weight.builtPanels()).isNotNull();
        poison(w);

        float[] fromPanels = product(x, rows, weight, bias, residual, epilogue);
        assertThat(fromPanels).as("bit-identical to the product packed from the file").isEqualTo(fromFile);
        for (int i = 0; i < picks.length; i++) {
            float[] row = new float[k + 2];
            Arrays.fill(row, Float.NaN);
            weight.row(picks[i], row, 1);
            assertThat(Arrays.copyOfRange(row, 1, k + 1)).as("row %d", picks[i]).isEqualTo(fileRows[i]);
        }
    }

    /** The GEMM's packing straddles two panels when a block starts inside one (blocks of another width). */
    @ParameterizedTest(name = "{0}, outputs from {1}, {2} wide")
    @CsvSource({"F16, 0, 128", "F16, 16, 100", "F16, 40, 77", "F16, 3, 7",
        "Q8_0, 0, 128", "Q8_0, 16, 100", "Q8_0, 40, 77", "Q8_0, 3, 7"})
    void packingFromThePanelsEqualsPackingFromTheFile(DType dtype, int n0, int nc) {
        int n = 300;
        int k = 160;
        HostTensor w = TestWeights.random(dtype, n, k, 3);
        DecoderPanels panels = dtype == DType.F16 ? GemvPanelsF16.of(w) : GemvPanelsQ8_0.of(w);
        for (int[] depths : new int[][] {{0, k}, {64, 96}}) {
            int kc = depths[1];
            int size = (nc + GemmPanels.PW - 1) / GemmPanels.PW * GemmPanels.PW * kc;
            float[] expected = new float[size];
            float[] got = new float[size];
            Arrays.fill(got, Float.NaN);
            new GemmPanels.Weights(w).pack(n0, nc, depths[0], kc, expected, new float[kc]);
            new GemmPanels.FromDecoderPanels(panels).pack(n0, nc, depths[0], kc, got, new float[kc]);
            assertThat(got).isEqualTo(expected);
        }
    }

    @ParameterizedTest(name = "row {0}")
    @CsvSource({"-1", "300"})
    void aRowOutsideTheMatrixIsAnError(int r) {
        for (DecoderPanels panels : new DecoderPanels[] {GemvPanelsF16.of(TestWeights.random(DType.F16, 300, 64, 1)),
                GemvPanelsQ8_0.of(TestWeights.random(DType.Q8_0, 300, 64, 1))}) {
            assertThatThrownBy(() -> panels.widenRow(r, new float[64], 0))
                    .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("row " + r);
        }
    }

    private static float[] product(float[] x, int rows, CpuWeight w, float[] bias, float[] residual, Epilogue e) {
        int n = Math.toIntExact(w.source().rows());
        float[] out = e == Epilogue.ADD ? Arrays.copyOf(residual, rows * n) : new float[rows * n];
        if (e != Epilogue.ADD) {
            Arrays.fill(out, Float.NaN);
        }
        CpuLinear.run(x, 0, rows, w, bias, out, 0, e);
        return out;
    }

    /** Every byte 0x7e: an f16 value or a q8_0 block's f16 scale of 0x7e7e, a NaN. */
    private static void poison(HostTensor w) {
        w.data().fill((byte) 0x7e);
    }

    private static float[] randoms(int count, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        float[] f = new float[count];
        for (int i = 0; i < count; i++) {
            f[i] = (float) rnd.nextGaussian();
        }
        return f;
    }
}
