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
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every GPU op against the CPU backend (itself tested against float64) on fresh random inputs, at
 * Whisper's real shapes (tiny d=384, base 512, small 768, medium 1024, large 1280; 1500 audio frames;
 * vocabularies 51865/51866) and at
 * odd sizes; outputs poisoned with NaN before each run and followed by sentinel floats.
 * Limits: weights whose values f16 holds exactly (f16, bf16 files): 1e-5, only the summation order
 * differs; weights rounded to f16 on the device (f32, quantised, int8): 2e-3.
 */
class GpuOpsTest {
    private static final CpuBackend CPU = new CpuBackend();
    private static long seed = System.nanoTime();

    private static long nextSeed() {
        return seed++;
    }

    static Stream<Arguments> linearCases() {
        List<Arguments> cases = new ArrayList<>();
        // rows, n (out), k (in): encoder projections and MLP of tiny and large, decoder rows
        // (1 token, 5 beams), the logits, odd sizes and tails.
        int[][] shapes = {{1500, 384, 384}, {1500, 1536, 384}, {1500, 512, 512}, {1500, 768, 768},
            {1500, 4096, 1024}, {5, 1024, 4096}, {1, 51865, 1024}, {1500, 1280, 1280}, {1, 1280, 1280},
            {5, 5120, 1280}, {1, 51866, 384}, {5, 51866, 1280}, {9, 65, 96}, {1, 1, 32}, {7, 33, 160},
            {67, 129, 64}, {3, 100, 4096}};
        for (int[] s : shapes) {
            cases.add(Arguments.of(DType.F16, s[0], s[1], s[2], 3));
        }
        // Buffers at offset 0: the 16-byte loads of x and 8-byte stores of out that the sm_80
        // GEMM bodies take only when aligned, with the 128 x 128 tile (KernelChoice.wideTile) at the
        // large encoders' shapes and odd sizes, and the 64 x 64 one.
        int[][] aligned = {{1500, 1280, 1280}, {1500, 5120, 1280}, {1500, 1280, 5120}, {1501, 1282, 1284},
            {1333, 2050, 72}, {1500, 768, 768}, {130, 70, 40}};
        for (int[] s : aligned) {
            cases.add(Arguments.of(DType.F16, s[0], s[1], s[2], 0));
        }
        for (DType t : List.of(DType.F32, DType.BF16, DType.Q8_0, DType.Q5_0, DType.Q5_1, DType.Q4_0, DType.I8)) {
            cases.add(Arguments.of(t, 1500, 384, 384, 3));
            cases.add(Arguments.of(t, 1, 1280, 1280, 3));
            cases.add(Arguments.of(t, 13, 37, 96, 3));
        }
        List<Arguments> out = new ArrayList<>(Gpus.perApi(cases).toList());
        // "cuda-portable": gemm_f16's portable (AMD) body on the CUDA device, the test-only module
        // gemm_portable (as attention_portable; the HIP stand-in runs it too), at every shape above with
        // more rows than the GEMV takes: the encoders' and odd sizes, aligned and at an offset.
        int[][] portable = {{1500, 384, 384, 3}, {1500, 1536, 384, 3}, {1500, 1280, 1280, 0}, {1500, 5120, 1280, 0},
            {1500, 1280, 5120, 0}, {1501, 1282, 1284, 0}, {1333, 2050, 72, 0}, {130, 70, 40, 0}, {9, 65, 96, 3},
            {67, 129, 64, 3}, {200, 51866, 80, 0}};
        for (int[] s : portable) {
            out.add(Arguments.of("cuda-portable", DType.F16, s[0], s[1], s[2], s[3]));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} rows={2} n={3} k={4} offset={5}")
    @MethodSource("linearCases")
    void linear(String api, DType type, int rows, int n, int k, int offset) {
        boolean portable = api.equals("cuda-portable");
        GpuBackend gpu = portable ? Gpus.portableAttentionBackend() : Gpus.backend(api);
        HostTensor w = TestWeights.random(type, n, k, nextSeed());
        HostTensor bias = Gpus.f16Vector("bias", n, nextSeed());
        float[] x = TestWeights.activations(rows * k, nextSeed());
        float[] initial = TestWeights.activations(rows * n, nextSeed());
        double limit = type == DType.F16 || type == DType.BF16 ? 1e-5 : 2e-3;
        Weight gw = gpu.upload(w);
        Weight gb = gpu.upload(bias);
        Weight cw = CPU.upload(w);
        Weight cb = CPU.upload(bias);
        for (Epilogue e : Epilogue.values()) {
            for (boolean withBias : new boolean[] {true, false}) {
                float[] want = Gpus.cpuLinear(x, rows, cw, withBias ? cb : null, initial, rows * n, e);
                // outputs and inputs at an offset into their buffers
                try (Buffer gx = gpu.allocate(x.length + offset); Buffer go = poisoned(gpu, offset + want.length)) {
                    gpu.upload(x, 0, gx, offset, x.length);
                    if (e == Epilogue.ADD) {
                        gpu.upload(initial, 0, go, offset, initial.length);
                    }
                    Runnable run = () -> gpu.linear(gx, offset, rows, gw, withBias ? gb : null, go, offset, e);
                    if (portable) {
                        gpu.withModules("attention", "gemm_portable", run);
                    } else {
                        run.run();
                    }
                    float[] all = read(gpu, go, offset + want.length);
                    if (offset > 0) {
                        assertThat(all[0]).as("before the output offset").isNaN();
                    }
                    float[] got = java.util.Arrays.copyOfRange(all, offset, all.length);
                    double scale = typicalNorm(type, w, withBias ? bias : null, x, e == Epilogue.ADD ? initial : null,
                            rows, n, k);
                    assertThat(relErr(got, want) * normOf(want) / Math.max(normOf(want), scale))
                            .as("%s %s epilogue %s bias %s", api, type, e, withBias).isLessThanOrEqualTo(limit);
                }
            }
        }
    }

    /**
     * The size an output of this shape has when its terms do not cancel: ‖|W|·|x| + |b| + |out₀|‖ / √k,
     * for f16 weights and shapes small enough to sum here (else 0). A normwise relative error is only
     * meaningful against that: one output of a 32-term dot product drawn at random can cancel to a
     * hundredth of its terms, and then the f32 roundings of the GPU and of the CPU reference alone
     * differ by more than 1e-5 of it (it happened once, at rows=1 n=1 k=32, 1.8e-5). Where nothing
     * cancels this is below ‖want‖ and the test's bound is the plain normwise one.
     */
    private static double typicalNorm(DType type, HostTensor w, HostTensor bias, float[] x, float[] initial, int rows,
            int n, int k) {
        if (type != DType.F16 || (long) rows * n * k > 20_000_000L) {
            return 0;
        }
        double sum = 0;
        for (int r = 0; r < rows; r++) {
            for (int j = 0; j < n; j++) {
                double a = bias == null ? 0 : Math.abs(Float.float16ToFloat(bias.data().getAtIndex(
                        ValueLayout.JAVA_SHORT_UNALIGNED, j)));
                a += initial == null ? 0 : Math.abs(initial[r * n + j]);
                for (int i = 0; i < k; i++) {
                    a += Math.abs(Float.float16ToFloat(w.data().getAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED,
                            (long) j * k + i))) * Math.abs(x[r * k + i]);
                }
                sum += a * a;
            }
        }
        return Math.sqrt(sum / k);
    }

    private static double normOf(float[] v) {
        double s = 0;
        for (float f : v) {
            s += (double) f * f;
        }
        return Math.sqrt(s);
    }

    static Stream<Arguments> hiloCases() {
        List<Arguments> out = new ArrayList<>();
        List<KernelChoice.HiloKernel> entries = List.of(KernelChoice.HILO, KernelChoice.HILO_2BLK, KernelChoice.HILO_PIPE);
        // rows, n, k: large-v3's Q/K/V/out, MLP up and down; small's and tiny's; odd rows, n and k
        // (k % 8 == 0: the entries' precondition), fewer rows / columns than one tile, one k chunk
        int[][] shapes = {{1500, 1280, 1280}, {1500, 5120, 1280}, {1500, 1280, 5120}, {1500, 768, 768},
            {1500, 3072, 768}, {1500, 384, 1536}, {1499, 1288, 1288}, {1501, 130, 72}, {129, 65, 8}, {1, 7, 16},
            {200, 1282, 1288}};
        for (KernelChoice.HiloKernel h : entries) {
            for (int[] sh : shapes) {
                out.add(Arguments.of(h.name(), sh[0], sh[1], sh[2]));
            }
        }
        return out.stream();
    }

    /**
     * Each hilo GEMM entry (KernelChoice.hiloKernel's choices: the 2-stage ones and the 3-stage
     * dynamic-shared-memory gemm_f16_hilo_pipe) through the backend against the CPU, whichever one the device would
     * pick; skipped where an entry cannot run (no sm_80 cubin, too little opt-in shared memory).
     */
    @ParameterizedTest(name = "{0} rows={1} n={2} k={3}")
    @MethodSource("hiloCases")
    void linearThroughEveryHiloEntry(String entry, int rows, int n, int k) {
        GpuBackend gpu = Gpus.backend("cuda");
        KernelChoice.HiloKernel h = java.util.stream.Stream.of(KernelChoice.HILO, KernelChoice.HILO_2BLK,
                KernelChoice.HILO_PIPE).filter(e -> e.name().equals(entry)).findFirst()
                .orElseThrow();
        HostTensor w = TestWeights.random(DType.F16, n, k, nextSeed());
        HostTensor bias = Gpus.f16Vector("bias", n, nextSeed());
        float[] x = TestWeights.activations(rows * k, nextSeed());
        float[] initial = TestWeights.activations(rows * n, nextSeed());
        Weight gw = gpu.upload(w);
        Weight gb = gpu.upload(bias);
        for (Epilogue e : Epilogue.values()) {
            float[] want = Gpus.cpuLinear(x, rows, CPU.upload(w), CPU.upload(bias), initial, rows * n, e);
            try (Buffer gx = gpu.allocate(x.length); Buffer go = poisoned(gpu, want.length)) {
                gpu.upload(x, 0, gx, 0, x.length);
                if (e == Epilogue.ADD) {
                    gpu.upload(initial, 0, go, 0, initial.length);
                }
                org.junit.jupiter.api.Assumptions.assumeTrue(gpu.linearHilo(h, gx, rows, gw, gb, go, e),
                        "skipped: " + entry + " cannot run on " + gpu.props().describe());
                assertThat(relErr(read(gpu, go, want.length), want)).as("%s epilogue %s", entry, e)
                        .isLessThanOrEqualTo(1e-5);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cuda", "hip"})
    void layerNormAtEveryBlockSize(String api) {
        GpuBackend gpu = Gpus.backend(api);
        int warp = gpu.props().warpSize();
        // Real rows (the encoders', a decoder step's), odd sizes (the scalar body: cols % 4 != 0), and
        // rows wider than a warp's registers hold (4104, 4097; 2000 at warp 32): the block body.
        for (int[] s : new int[][] {{1500, 384}, {1500, 512}, {1500, 768}, {1500, 1024}, {1500, 1280}, {3, 1280},
            {5, 1280}, {1, 1280}, {1, 384}, {7, 1}, {2, 33}, {7, 1000}, {3, 999}, {5, 4104}, {3, 2000}, {4, 4097},
            {1, 1025}}) {
            int rows = s[0];
            int cols = s[1];
            float[] x = TestWeights.activations(rows * cols, nextSeed());
            for (int i = 0; i < x.length; i++) {
                x[i] = x[i] * 3 + 5; // a mean far from 0: the two-pass variance matters
            }
            HostTensor g = Gpus.f16Vector("g", cols, nextSeed());
            HostTensor b = Gpus.f16Vector("b", cols, nextSeed());
            float[] want = new float[x.length];
            try (Buffer cx = CPU.allocate(x.length); Buffer co = CPU.allocate(x.length)) {
                CPU.upload(x, 0, cx, 0, x.length);
                CPU.layerNorm(cx, rows, cols, CPU.upload(g), CPU.upload(b), co);
                CPU.download(co, 0, want, 0, want.length);
            }
            Weight gg = gpu.upload(g);
            Weight gb = gpu.upload(b);
            for (int block = warp; block <= LaunchGeometry.LAYER_NORM_MAX_BLOCK; block += warp) {
                try (Buffer gx = gpu.allocate(x.length); Buffer go = poisoned(gpu, x.length)) {
                    gpu.upload(x, 0, gx, 0, x.length);
                    gpu.layerNorm(gx, rows, cols, gg, gb, go, block);
                    assertThat(relErr(read(gpu, go, x.length), want)).as("%s rows %d cols %d block %d", api, rows,
                            cols, block).isLessThanOrEqualTo(1e-5);
                }
            }
        }
    }

    /**
     * The model's launch (LaunchGeometry.LAYER_NORM_BLOCK: a warp per row) against float64 within 1e-6,
     * out of place and in place (out == x, as the encoder's final norm), poisoned and guarded.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cuda", "hip"})
    void layerNormAtTheModelsLaunchAgainstFloat64(String api) {
        GpuBackend gpu = Gpus.backend(api);
        for (int[] s : new int[][] {{1500, 1280}, {1500, 768}, {1500, 384}, {1, 1280}, {1, 384}, {5, 1280}, {7, 1000},
            {3, 999}, {5, 4104}, {3, 2000}, {9, 1}}) {
            int rows = s[0];
            int cols = s[1];
            float[] x = TestWeights.activations(rows * cols, nextSeed());
            for (int i = 0; i < x.length; i++) {
                x[i] = x[i] * 3 + 5;
            }
            HostTensor g = Gpus.f16Vector("g", cols, nextSeed());
            HostTensor b = Gpus.f16Vector("b", cols, nextSeed());
            float[] gain = f16s(g, cols);
            float[] bias = f16s(b, cols);
            float[] want = new float[x.length];
            for (int r = 0; r < rows; r++) {
                double mean = 0;
                double var = 0;
                for (int c = 0; c < cols; c++) {
                    mean += x[r * cols + c];
                }
                mean /= cols;
                for (int c = 0; c < cols; c++) {
                    double d = x[r * cols + c] - mean;
                    var += d * d;
                }
                double inv = 1 / Math.sqrt(var / cols + 1e-5);
                for (int c = 0; c < cols; c++) {
                    want[r * cols + c] = (float) ((x[r * cols + c] - mean) * inv * gain[c] + bias[c]);
                }
            }
            Weight gg = gpu.upload(g);
            Weight gb = gpu.upload(b);
            try (Buffer gx = gpu.allocate(x.length); Buffer go = poisoned(gpu, x.length);
                    Buffer inPlace = poisoned(gpu, x.length)) {
                gpu.upload(x, 0, gx, 0, x.length);
                gpu.layerNorm(gx, rows, cols, gg, gb, go);
                assertThat(relErr(read(gpu, go, x.length), want)).as("%s rows %d cols %d", api, rows, cols)
                        .isLessThanOrEqualTo(1e-6);
                gpu.upload(x, 0, inPlace, 0, x.length);
                gpu.layerNorm(inPlace, rows, cols, gg, gb, inPlace);
                assertThat(relErr(read(gpu, inPlace, x.length), want)).as("%s rows %d cols %d in place", api, rows,
                        cols).isLessThanOrEqualTo(1e-6);
            }
        }
    }

    private static float[] f16s(HostTensor t, int n) {
        float[] f = new float[n];
        for (int i = 0; i < n; i++) {
            f[i] = Float.float16ToFloat(t.data().getAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i));
        }
        return f;
    }

    static Stream<Arguments> projectCases() {
        // rows, n, k, projections: a decoded token's / 5 beams' query, key, value (one gemv3_f16),
        // two and one; the encoder's (one split of x for all: large-v3 and an odd size), tiny's
        // (the 64 tile, one by one); mixed shapes (one by one)
        return Gpus.perApi(new int[][] {{1, 1280, 1280, 3}, {5, 1280, 1280, 3}, {1, 384, 384, 2}, {8, 65, 96, 1},
            {1500, 1280, 1280, 3}, {1333, 1282, 1288, 2}, {1500, 384, 384, 3}, {3, -1, 72, 2}});
    }

    /** Backend.project: each projection as the CPU's linear (no epilogue), the second one without bias. */
    @ParameterizedTest(name = "{0} rows={1} n={2} k={3} projections={4}")
    @MethodSource("projectCases")
    void project(String api, int rows, int n, int k, int count) {
        GpuBackend gpu = Gpus.backend(api);
        float[] x = TestWeights.activations(rows * k, nextSeed());
        List<Weight> gw = new ArrayList<>();
        List<Weight> gb = new ArrayList<>();
        List<float[]> want = new ArrayList<>();
        int[] widths = new int[count];
        try (Buffer cx = CPU.allocate(x.length)) {
            CPU.upload(x, 0, cx, 0, x.length);
            for (int i = 0; i < count; i++) {
                widths[i] = n > 0 ? n : 33 + 37 * i; // n = -1: a different width per projection
                HostTensor w = TestWeights.random(DType.F16, widths[i], k, nextSeed());
                HostTensor b = Gpus.f16Vector("bias", widths[i], nextSeed());
                HostTensor bias = i == 1 ? null : b;
                gw.add(gpu.upload(w));
                gb.add(bias == null ? null : gpu.upload(bias));
                float[] o = new float[rows * widths[i]];
                try (Buffer co = CPU.allocate(o.length)) {
                    CPU.linear(cx, 0, rows, CPU.upload(w), bias == null ? null : CPU.upload(bias), co, 0,
                            Epilogue.NONE);
                    CPU.download(co, 0, o, 0, o.length);
                }
                want.add(o);
            }
        }
        List<Buffer> outs = new ArrayList<>();
        try (Buffer gx = gpu.allocate(x.length)) {
            gpu.upload(x, 0, gx, 0, x.length);
            var ps = new dev.dictum.gpu.Backend.Projection[count];
            for (int i = 0; i < count; i++) {
                outs.add(poisoned(gpu, (long) rows * widths[i]));
                ps[i] = new dev.dictum.gpu.Backend.Projection(gw.get(i), gb.get(i), outs.get(i));
            }
            gpu.project(gx, rows, ps);
            for (int i = 0; i < count; i++) {
                assertThat(relErr(read(gpu, outs.get(i), (long) rows * widths[i]), want.get(i)))
                        .as("%s projection %d of %d", api, i, count).isLessThanOrEqualTo(1e-5);
            }
        } finally {
            outs.forEach(Buffer::close);
        }
    }

    static Stream<Arguments> convCases() {
        return Gpus.perApi(List.of(
            Arguments.of(true, 80, 3000, 384, 1), // tiny conv1 on the log-mel
            Arguments.of(true, 128, 3000, 1280, 1), // large-v3 conv1
            Arguments.of(true, 80, 3000, 1024, 1), // medium conv1
            Arguments.of(false, 768, 3000, 768, 2), // small conv2
            Arguments.of(false, 384, 3000, 384, 2), // tiny conv2
            Arguments.of(false, 1280, 3000, 1280, 2), // large conv2
            Arguments.of(true, 3, 7, 5, 1),
            Arguments.of(false, 17, 65, 70, 2),
            Arguments.of(false, 9, 1, 3, 2)));
    }

    @ParameterizedTest(name = "{0} channelMajor={1} in={2}x{3} out={4} stride={5}")
    @MethodSource("convCases")
    void conv1dGelu(String api, boolean channelMajor, int inChannels, int inFrames, int outChannels, int stride) {
        GpuBackend gpu = Gpus.backend(api);
        float[] in = TestWeights.activations(inChannels * inFrames, nextSeed());
        HostTensor w = TestWeights.random(DType.F16, outChannels, inChannels * 3, nextSeed());
        w = new HostTensor("conv.w", DType.F16, new long[] {outChannels, inChannels, 3}, w.data());
        HostTensor b = Gpus.f16Vector("conv.b", outChannels, nextSeed());
        int outFrames = (inFrames - 1) / stride + 1;
        float[] want = new float[outFrames * outChannels];
        try (Buffer ci = CPU.allocate(in.length); Buffer co = CPU.allocate(want.length)) {
            CPU.upload(in, 0, ci, 0, in.length);
            CPU.conv1dGelu(ci, channelMajor, inChannels, inFrames, CPU.upload(w), CPU.upload(b), stride, co);
            CPU.download(co, 0, want, 0, want.length);
        }
        try (Buffer gi = gpu.allocate(in.length); Buffer go = poisoned(gpu, want.length)) {
            gpu.upload(in, 0, gi, 0, in.length);
            gpu.conv1dGelu(gi, channelMajor, inChannels, inFrames, gpu.upload(w), gpu.upload(b), stride, go);
            assertThat(relErr(read(gpu, go, want.length), want)).isLessThanOrEqualTo(1e-5);
        }
    }

    /**
     * "cuda-portable" runs the portable (AMD, f32) body of attention.cu on the CUDA device: the same
     * source built for NVIDIA as the test-only module attention_portable (no AMD card is available,
     * and the HIP stand-in runs the NVIDIA body). "packed" rows (strides = the width, no offset) take
     * the bodies' 16-byte load paths; the others their unaligned element paths.
     */
    static Stream<Arguments> attentionCases() {
        List<Arguments> out = new ArrayList<>();
        for (String api : List.of("cuda", "hip", "cuda-portable")) {
            // batch, queries, keys, heads, headDim, causal, packed
            out.add(Arguments.of(api, 1, 1500, 1500, 6, 64, false, false)); // tiny encoder
            out.add(Arguments.of(api, 1, 1500, 1500, 8, 64, false, false)); // base encoder
            out.add(Arguments.of(api, 1, 1500, 1500, 12, 64, false, false)); // small encoder
            out.add(Arguments.of(api, 1, 1500, 1500, 16, 64, false, false)); // medium encoder
            out.add(Arguments.of(api, 1, 1500, 1500, 20, 64, false, false)); // large encoder
            out.add(Arguments.of(api, 1, 1500, 1500, 20, 64, false, true)); // large encoder, packed rows
            out.add(Arguments.of(api, 1, 750, 750, 6, 64, false, true)); // a shortened encoder context
            out.add(Arguments.of(api, 5, 1, 37, 20, 64, true, false)); // a decoded token, 5 beams
            out.add(Arguments.of(api, 5, 1, 37, 20, 64, true, true));
            out.add(Arguments.of(api, 1, 4, 4, 6, 64, true, false)); // the prompt
            out.add(Arguments.of(api, 1, 6, 6, 1, 64, false, true)); // tiny: 6 x 64
            out.add(Arguments.of(api, 3, 3, 40, 3, 17, true, false)); // odd head size
            out.add(Arguments.of(api, 2, 45, 77, 3, 24, true, true)); // odd sizes, causal, a partial tile
            out.add(Arguments.of(api, 1, 100, 300, 6, 64, true, true)); // a long prompt: causal, 64-query blocks
            out.add(Arguments.of(api, 2, 40, 40, 2, 33, false, false)); // 64-query blocks, element loads
            out.add(Arguments.of(api, 2, 33, 65, 2, 96, false, false)); // a larger head size
            out.add(Arguments.of(api, 1, 70, 129, 2, 128, false, true)); // the largest head size
            out.add(Arguments.of(api, 1, 1, 1, 1, 1, false, false));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} batch={1} queries={2} keys={3} heads={4} headDim={5} causal={6} packed={7}")
    @MethodSource("attentionCases")
    void attention(String api, int batch, int queries, int keys, int heads, int headDim, boolean causal,
            boolean packed) {
        boolean portable = api.equals("cuda-portable");
        GpuBackend gpu = portable ? Gpus.portableAttentionBackend() : Gpus.backend(api);
        int d = heads * headDim;
        int qStride = packed ? d : d + 5;
        int kvStride = packed ? d : d + 3;
        long kvOffset = packed ? 0 : 7;
        long kvBatchStride = (long) (keys + 2) * kvStride;
        int[] keyCounts = new int[batch];
        SplittableRandom rnd = new SplittableRandom(nextSeed());
        for (int b = 0; b < batch; b++) {
            keyCounts[b] = Math.max(causal ? queries : 1, keys - rnd.nextInt(Math.min(3, keys)));
        }
        float[] q = TestWeights.activations(batch * queries * qStride, nextSeed());
        int kvLen = (int) (kvOffset + batch * kvBatchStride);
        float[] k = TestWeights.activations(kvLen, nextSeed());
        float[] v = TestWeights.activations(kvLen, nextSeed());
        int outLen = batch * queries * d;
        float[] want = new float[outLen];
        try (Buffer cq = CPU.allocate(q.length); Buffer ck = CPU.allocate(kvLen); Buffer cv = CPU.allocate(kvLen);
                Buffer co = CPU.allocate(outLen)) {
            CPU.upload(q, 0, cq, 0, q.length);
            CPU.upload(k, 0, ck, 0, kvLen);
            CPU.upload(v, 0, cv, 0, kvLen);
            CPU.attention(cq, qStride, batch, queries, ck, cv, kvOffset, kvBatchStride, kvStride, keyCounts, heads,
                    headDim, causal, co);
            CPU.download(co, 0, want, 0, outLen);
        }
        try (Buffer gq = gpu.allocate(q.length); Buffer gk = gpu.allocate(kvLen); Buffer gv = gpu.allocate(kvLen);
                Buffer go = poisoned(gpu, outLen)) {
            gpu.upload(q, 0, gq, 0, q.length);
            gpu.upload(k, 0, gk, 0, kvLen);
            gpu.upload(v, 0, gv, 0, kvLen);
            Runnable run = () -> gpu.attention(gq, qStride, batch, queries, gk, gv, kvOffset, kvBatchStride, kvStride,
                    keyCounts, heads, headDim, causal, go);
            if (portable) {
                gpu.withModules("attention_portable", "gemm", run);
            } else {
                run.run();
            }
            assertThat(relErr(read(gpu, go, outLen), want)).isLessThanOrEqualTo(1e-5);
        }
    }

    static Stream<Arguments> crossCases() {
        return Gpus.perApi(new int[][] {
            {1, 1500, 6, 64},
            {5, 1500, 20, 64},
            {5, 1500, 16, 64}, // medium, 5 beams
            {1, 1500, 8, 64}, // base
            {3, 7, 3, 24},
            {2, 1, 1, 1},
            // Split over the keys (issue 12): a large-v3 token (20 pairs: 14 chunks on 132 SMs), a
            // shortened window, an odd head width with a short last chunk, pairs enough for one chunk.
            {1, 1500, 20, 64},
            {1, 700, 20, 64},
            {2, 1000, 3, 24},
            {40, 1500, 20, 64}});
    }

    @ParameterizedTest(name = "{0} rows={1} keys={2} heads={3} headDim={4}")
    @MethodSource("crossCases")
    void crossAttention(String api, int rows, int keys, int heads, int headDim) {
        GpuBackend gpu = Gpus.backend(api);
        int d = heads * headDim;
        int keysStride = keys + 4;
        float[] q = TestWeights.activations(rows * d, nextSeed());
        float[] kt = TestWeights.activations(d * keysStride, nextSeed());
        float[] v = TestWeights.activations(keys * d, nextSeed());
        float[] want = new float[rows * d];
        try (Buffer cq = CPU.allocate(q.length); Buffer ck = CPU.allocate(kt.length); Buffer cv = CPU.allocate(v.length);
                Buffer co = CPU.allocate(want.length)) {
            CPU.upload(q, 0, cq, 0, q.length);
            CPU.upload(kt, 0, ck, 0, kt.length);
            CPU.upload(v, 0, cv, 0, v.length);
            CPU.crossAttention(cq, rows, ck, keysStride, cv, keys, heads, headDim, co);
            CPU.download(co, 0, want, 0, want.length);
        }
        try (Buffer gq = gpu.allocate(q.length); Buffer gk = gpu.allocate(kt.length); Buffer gv = gpu.allocate(v.length)) {
            gpu.upload(q, 0, gq, 0, q.length);
            gpu.upload(kt, 0, gk, 0, kt.length);
            gpu.upload(v, 0, gv, 0, v.length);
            float[] first = null;
            // Three launches: the chunks' sum is added in chunk order whichever block finishes last,
            // so every launch gives the same bits, and each leaves the tickets at 0 for the next.
            for (int run = 0; run < 3; run++) {
                try (Buffer go = poisoned(gpu, want.length)) {
                    gpu.crossAttention(gq, rows, gk, keysStride, gv, keys, heads, headDim, go);
                    float[] got = read(gpu, go, want.length);
                    if (first == null) {
                        assertThat(relErr(got, want)).isLessThanOrEqualTo(1e-5);
                        first = got;
                    } else {
                        assertThat(java.util.Arrays.equals(got, first)).as("launch %d, same bits", run + 1).isTrue();
                    }
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cuda", "hip"})
    void transposeEmbedAddRowsCopy(String api) {
        GpuBackend gpu = Gpus.backend(api);
        for (int[] s : new int[][] {{1500, 1280, 1504}, {33, 65, 40}, {1, 1, 1}, {64, 31, 64}}) {
            int rows = s[0];
            int cols = s[1];
            int stride = s[2];
            float[] src = TestWeights.activations(rows * cols, nextSeed());
            int outLen = (cols - 1) * stride + rows;
            try (Buffer gs = gpu.allocate(src.length); Buffer go = poisoned(gpu, outLen)) {
                gpu.upload(src, 0, gs, 0, src.length);
                gpu.transpose(gs, rows, cols, go, stride);
                float[] got = read(gpu, go, outLen);
                for (int c = 0; c < cols; c++) {
                    for (int r = 0; r < rows; r++) {
                        assertThat(got[c * stride + r]).isEqualTo(src[r * cols + c]);
                    }
                }
            }
        }
        for (DType t : List.of(DType.F16, DType.F32, DType.Q8_0)) {
            int vocab = 51866;
            int cols = 1280;
            HostTensor tok = TestWeights.random(t, vocab, cols, nextSeed());
            HostTensor pos = TestWeights.random(DType.F16, 448, cols, nextSeed());
            int[] tokens = {50258, 0, vocab - 1, 17, 50359};
            int[] positions = {0, 1, 447, 3, 4};
            float[] want = new float[tokens.length * cols];
            try (Buffer co = CPU.allocate(want.length)) {
                CPU.embed(tokens, positions, tokens.length, CPU.upload(tok), CPU.upload(pos), co);
                CPU.addRows(co, 3, CPU.upload(pos), 100);
                CPU.download(co, 0, want, 0, want.length);
            }
            Weight gpos = gpu.upload(pos);
            try (Buffer go = poisoned(gpu, want.length)) {
                gpu.embed(tokens, positions, tokens.length, gpu.upload(tok), gpos, go);
                gpu.addRows(go, 3, gpos, 100);
                assertThat(relErr(read(gpu, go, want.length), want)).as("embed %s", t)
                        .isLessThanOrEqualTo(t == DType.F16 ? 0 : 2e-3);
            }
        }
        float[] data = TestWeights.activations(1000, nextSeed());
        try (Buffer a = gpu.allocate(1000); Buffer b = poisoned(gpu, 1003)) {
            gpu.upload(data, 0, a, 0, 1000);
            gpu.fill(b, 0, 3, 0f);
            gpu.copy(a, 0, b, 3, 1000);
            float[] got = read(gpu, b, 1003);
            assertThat(java.util.Arrays.copyOfRange(got, 3, 1003)).containsExactly(data);
        }
    }
}
