package dev.dictum.gpu.backend;

import static dev.dictum.gpu.backend.Gpus.poisoned;
import static dev.dictum.gpu.backend.Gpus.read;
import static dev.dictum.gpu.backend.Gpus.relErr;
import static org.assertj.core.api.Assertions.assertThat;

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
 * The decoder's GEMV as a decoded token uses it (issue 12): gemv_f16 with its column split (several
 * warps per output for long rows) on each of its load paths — GpuOpsTest's linear cases pass x at an
 * odd offset, so they reach only the scalar loads — against the CPU backend in f32
 * (‖got − want‖ / ‖want‖ ≤ 1e-5, as GpuOpsTest: f16 weights are exact, only the summation order
 * differs; for GELU over the norm of its input, see the assertion), outputs poisoned with NaN and guarded; and run twice, bit for bit the same (the slices'
 * sums are added in a fixed order, no atomics: a result that changed between runs would be a race).
 * The split cross-attention is in GpuOpsTest's crossAttention cases.
 */
class GpuGemvTest {
    private static final CpuBackend CPU = new CpuBackend();
    private static long seed = System.nanoTime();

    static Stream<Arguments> gemvCases() {
        List<Arguments> cases = new ArrayList<>();
        // rows, n, k: large-v3/turbo's projections, MLP and logits; small's and tiny's MLP; beams;
        // split rows with uneven slices (4104 = 8·513, 4098 even, 4097 odd); a 9-row pass.
        int[][] shapes = {{1, 1280, 1280}, {1, 5120, 1280}, {1, 1280, 5120}, {1, 51866, 1280}, {1, 768, 3072},
            {1, 384, 1536}, {5, 1280, 5120}, {8, 1000, 1288}, {3, 77, 4104}, {2, 33, 4098}, {1, 5, 4097}};
        for (int[] s : shapes) {
            // x offset 0: 16-byte loads; 2 floats: half2/float2 loads; 1 float: scalar loads.
            for (int offset : new int[] {0, 2, 1}) {
                cases.add(Arguments.of(s[0], s[1], s[2], offset));
            }
        }
        return Gpus.perApi(cases);
    }

    private static double diff(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            double d = (double) a[i] - b[i];
            s += d * d;
        }
        return Math.sqrt(s);
    }

    private static double norm(float[] a) {
        return diff(a, new float[a.length]);
    }

    @ParameterizedTest(name = "{0} rows={1} n={2} k={3} x offset={4}")
    @MethodSource("gemvCases")
    void gemvMatchesTheCpuOnEveryLoadPathAndRepeatsBitForBit(String api, int rows, int n, int k, int offset) {
        GpuBackend gpu = Gpus.backend(api);
        HostTensor w = TestWeights.random(DType.F16, n, k, seed++);
        HostTensor bias = Gpus.f16Vector("bias", n, seed++);
        float[] x = TestWeights.activations(rows * k, seed++);
        float[] initial = TestWeights.activations(rows * n, seed++);
        Weight gw = gpu.upload(w);
        Weight gb = gpu.upload(bias);
        Weight cw = CPU.upload(w);
        Weight cb = CPU.upload(bias);
        float[] pre = Gpus.cpuLinear(x, rows, cw, cb, null, rows * n, Epilogue.NONE);
        for (Epilogue e : Epilogue.values()) {
            float[] want = Gpus.cpuLinear(x, rows, cw, cb, initial, rows * n, e);
            float[] first = null;
            for (int run = 0; run < 2; run++) {
                try (Buffer gx = gpu.allocate(x.length + offset); Buffer go = poisoned(gpu, want.length)) {
                    gpu.upload(x, 0, gx, offset, x.length);
                    if (e == Epilogue.ADD) {
                        gpu.upload(initial, 0, go, 0, initial.length);
                    }
                    gpu.linear(gx, offset, rows, gw, gb, go, 0, e);
                    float[] got = read(gpu, go, want.length);
                    if (run == 0) {
                        // GELU's error is measured against the size of its input: near and below zero it
                        // shrinks its output, and a few small outputs (n = 5) would turn two f32 summation
                        // orders' ~1e-6 into a relative error over 1e-5 (1.48e-5 in one H200 run).
                        double err = e == Epilogue.GELU ? diff(got, want) / norm(pre) : relErr(got, want);
                        assertThat(err).as("%s epilogue %s", api, e).isLessThanOrEqualTo(1e-5);
                        first = got;
                    } else {
                        assertThat(Arrays.equals(got, first)).as("%s epilogue %s: second run, same bits", api, e)
                                .isTrue();
                    }
                }
            }
        }
    }
}
