package dev.dictum.gpu.backend;

import static dev.dictum.gpu.backend.Gpus.poisoned;
import static dev.dictum.gpu.backend.Gpus.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dictum.gpu.Backend.Projection;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.DType;
import dev.dictum.gpu.MemoryCategory;
import dev.dictum.gpu.cpu.RowAttentionProblem;
import dev.dictum.gpu.cpu.TestWeights;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 22: the decoder's self-attention K/V caches stored in f16 (Backend#allocateHalf), written as the
 * model appends a feed's rows (copy, rounded by convert_f32_to_f16) and read by every self-attention
 * path of the decoder — beam search's row tables (attentionRows), the strided prompt and beams before a
 * reorder (attention), the greedy step (attentionStep, its key count read on the device) — all
 * attention_rows_f16kv, against float64 on fresh random inputs at large-v3's shape (n_state 1280, 20
 * heads) and tiny's (384, 6 heads) with cache lengths 1, 37, 224 and 448, and odd ones; outputs poisoned.
 * Two references: the f16-rounded K/V (the kernel's own error, f32 arithmetic: 1e-5 as the f32 entry)
 * and the f32 K/V (the storage's cost, printed; within 1e-3).
 */
class GpuSelfAttentionF16Test {
    private static long seed = System.nanoTime();

    /** The decoder's self-attention ops that read a cache. */
    enum Path {
        /** attentionRows: 5 beams through row tables shared as after reorders. */
        ROWS,
        /** attention: 5 sequences, each in its own block of rows (beams before a reorder). */
        STRIDED,
        /** attention: a prompt of several queries of one sequence, causal. */
        PROMPT,
        /** attentionStep: one query, the key count from the step buffer. */
        STEP
    }

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (Path path : Path.values()) {
            for (int keys : new int[] {1, 37, 224, 448}) {
                cases.add(Arguments.of(path, keys, 20, 64, 0)); // large-v3 / turbo
                cases.add(Arguments.of(path, keys, 6, 64, 0)); // tiny
            }
            cases.add(Arguments.of(path, 130, 3, 24, 0)); // odd head size: 5 groups in P.V
            cases.add(Arguments.of(path, 65, 2, 17, 1)); // odd rows: the element loads
        }
        return Gpus.perApi(cases);
    }

    @ParameterizedTest(name = "{0} {1} keys={2} heads={3} headDim={4} kvPad={5}")
    @MethodSource("cases")
    void f16CachesMatchFloat64(String api, Path path, int keys, int heads, int headDim, int kvPad) {
        GpuBackend gpu = Gpus.backend(api);
        int batch = path == Path.ROWS || path == Path.STRIDED ? 5 : 1;
        int queries = path == Path.PROMPT ? Math.min(keys, 4) : 1;
        RowAttentionProblem p = new RowAttentionProblem(batch, queries, keys, heads, headDim, true, kvPad, seed++);
        double[] f32Kv = p.reference();
        roundToF16(p.k);
        roundToF16(p.v);
        double[] exactKv = p.reference();
        boolean table = path == Path.ROWS;
        float[] k = table ? p.k : p.gather(p.k);
        float[] v = table ? p.v : p.gather(p.v);
        int outLen = p.outputFloats();
        try (Buffer gq = upload(gpu, p.q); Buffer hk = half(gpu, k);
                Buffer hv = half(gpu, v); Buffer gr = upload(gpu, p.rowBits()); Buffer step = gpu.allocate(3)) {
            gpu.uploadInts(new int[] {0, p.keys[0] - 1, p.keys[0]}, step, 3);
            float[] first = null;
            for (int run = 0; run < 2; run++) {
                try (Buffer go = poisoned(gpu, outLen)) {
                    switch (path) {
                        case ROWS -> gpu.attentionRows(gq, p.qStride, batch, queries, hk, hv, p.kvStride, gr,
                                p.rowsStride, p.keys, heads, headDim, true, go);
                        case STRIDED, PROMPT -> gpu.attention(gq, p.qStride, batch, queries, hk, hv, 0,
                                p.gatheredStride(), p.kvStride, p.keys, heads, headDim, true, go);
                        case STEP -> gpu.attentionStep(gq, hk, hv, p.kvStride, step, heads, headDim, go);
                    }
                    float[] got = read(gpu, go, outLen);
                    if (first == null) {
                        double kernel = RowAttentionProblem.relErr(got, exactKv);
                        double storage = RowAttentionProblem.relErr(got, f32Kv);
                        System.out.printf("%s %s f16 self K/V keys %d heads %d hd %d: rel err %.2e against float64"
                                + " of the f16 K/V, %.2e of the f32 K/V%n", api, path, keys, heads, headDim, kernel,
                                storage);
                        assertThat(kernel).as("against the f16 K/V").isLessThanOrEqualTo(1e-5);
                        assertThat(storage).as("against the f32 K/V").isLessThanOrEqualTo(1e-3);
                        first = got;
                    } else {
                        assertThat(Arrays.equals(got, first)).as("a second launch, the same bits").isTrue();
                    }
                }
            }
        }
    }

    /** The step's append (kv_append_f16) and a copy into an f16 cache round as Java's f16 conversion does. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cuda", "hip"})
    void appendsRoundToNearestEvenAndWriteOnlyTheirRow(String api) {
        GpuBackend gpu = Gpus.backend(api);
        int n = 1280;
        int ctx = 448;
        int position = 447; // the last row: nothing past the cache's end
        float[] row = TestWeights.activations(n, seed++);
        row[0] = 65520f; // rounds to infinity in f16
        row[1] = 1 + 0x1p-11f; // a tie: rounds to even (1.0)
        row[2] = 0x1p-25f; // half the smallest subnormal, a tie: rounds to even (0)
        try (Buffer src = upload(gpu, row); Buffer cache = gpu.allocateHalf((long) ctx * n, MemoryCategory.SELF_KV);
                Buffer other = gpu.allocateHalf((long) ctx * n, MemoryCategory.SELF_KV);
                Buffer step = gpu.allocate(3)) {
            gpu.uploadInts(new int[] {0, position, position + 1}, step, 3);
            gpu.kvAppendStep(src, cache, n, step, n);
            gpu.copy(src, 0, other, (long) position * n, n);
            float[][] got = {gpu.downloadHalf(cache, ctx * n), gpu.downloadHalf(other, ctx * n)};
            for (float[] g : got) {
                for (int i = 0; i < ctx * n; i++) {
                    float want = i / n == position ? Float.float16ToFloat(Float.floatToFloat16(row[i % n])) : 0f;
                    if (Float.floatToRawIntBits(g[i]) != Float.floatToRawIntBits(want)) {
                        throw new AssertionError(api + ": value " + i + " is " + g[i] + ", not " + want);
                    }
                }
                assertThat(g[position * n]).isInfinite();
                assertThat(g[position * n + 1]).isEqualTo(1f);
                assertThat(g[position * n + 2]).isZero();
            }
        }
    }

    /**
     * projectStep into f16 caches (gemv3_1_f16kv fused; layer norm, gemv3_f16 and kv_append_f16 unfused)
     * gives q with the f32 caches' bits and the f32 caches' row step[1] rounded to f16, bit for bit, at
     * large-v3's, small's and tiny's widths and an odd one; no other row is written.
     */
    @ParameterizedTest(name = "{0} n={1}")
    @MethodSource("projectStepCases")
    void projectStepRoundsTheF32RowsIntoTheCaches(String api, int n) {
        GpuBackend gpu = Gpus.backend(api);
        int ctx = 448;
        int position = n % 448;
        float[] x = TestWeights.activations(n, seed++);
        try (Buffer gx = upload(gpu, x); Buffer normed = gpu.allocate(n); Buffer q = gpu.allocate(n);
                Buffer kNew = gpu.allocate(n); Buffer vNew = gpu.allocate(n); Buffer step = gpu.allocate(3);
                Buffer k32 = gpu.allocate((long) ctx * n); Buffer v32 = gpu.allocate((long) ctx * n);
                Buffer k16 = gpu.allocateHalf((long) ctx * n, MemoryCategory.SELF_KV);
                Buffer v16 = gpu.allocateHalf((long) ctx * n, MemoryCategory.SELF_KV)) {
            gpu.uploadInts(new int[] {3, position, position + 1}, step, 3);
            var gain = gpu.upload(Gpus.f16Vector("gain", n, seed++));
            var lnBias = gpu.upload(Gpus.f16Vector("bias", n, seed++));
            Projection pq = new Projection(gpu.upload(TestWeights.random(DType.F16, n, n, seed++)),
                    gpu.upload(Gpus.f16Vector("bq", n, seed++)), q);
            Projection pk = new Projection(gpu.upload(TestWeights.random(DType.F16, n, n, seed++)), null, kNew);
            Projection pv = new Projection(gpu.upload(TestWeights.random(DType.F16, n, n, seed++)),
                    gpu.upload(Gpus.f16Vector("bv", n, seed++)), vNew);
            for (boolean fused : new boolean[] {true, false}) {
                gpu.fuseSteps(fused);
                try {
                    gpu.fill(q, 0, n, Float.NaN);
                    gpu.projectStep(gx, gain, lnBias, normed, pq, pk, pv, k32, v32, n, step);
                    float[] q32 = exactly(gpu, q, n);
                    gpu.fill(q, 0, n, Float.NaN);
                    gpu.projectStep(gx, gain, lnBias, normed, pq, pk, pv, k16, v16, n, step);
                    assertThat(Arrays.equals(exactly(gpu, q, n), q32)).as("%s fused=%s: q as with f32 caches", api, fused)
                            .isTrue();
                } finally {
                    gpu.fuseSteps(true);
                }
                Buffer[][] pairs = {{k32, k16}, {v32, v16}};
                for (Buffer[] pair : pairs) {
                    float[] f32 = exactly(gpu, pair[0], (long) ctx * n);
                    float[] f16 = gpu.downloadHalf(pair[1], ctx * n);
                    for (int i = 0; i < ctx * n; i++) {
                        float want = i / n == position ? Float.float16ToFloat(Float.floatToFloat16(f32[i])) : 0f;
                        if (Float.floatToRawIntBits(f16[i]) != Float.floatToRawIntBits(want)) {
                            throw new AssertionError(api + " fused=" + fused + ": cache value " + i + " is " + f16[i]
                                    + ", not " + want);
                        }
                    }
                    long written = 0;
                    for (int i = position * n; i < position * n + n; i++) {
                        written += f32[i] != 0 && Float.isFinite(f32[i]) ? 1 : 0;
                    }
                    assertThat(written).as("%s fused=%s: the f32 row was written", api, fused).isGreaterThan(n / 2);
                }
            }
        }
    }

    static Stream<Arguments> projectStepCases() {
        return Gpus.perApi(new int[][] {{1280}, {768}, {384}, {999}});
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cuda", "hip"})
    void keysAndValuesMustBeStoredAlike(String api) {
        GpuBackend gpu = Gpus.backend(api);
        try (Buffer q = gpu.allocate(64); Buffer half = gpu.allocateHalf(64, MemoryCategory.SELF_KV);
                Buffer f32 = gpu.allocate(64); Buffer out = gpu.allocate(64)) {
            assertThatThrownBy(() -> gpu.attention(q, 64, 1, 1, half, f32, 0, 0, 64, new int[] {1}, 1, 64, true, out))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("stored alike");
            assertThatThrownBy(() -> gpu.copy(half, 0, f32, 0, 64)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    private static void roundToF16(float[] x) {
        for (int i = 0; i < x.length; i++) {
            x[i] = Float.float16ToFloat(Float.floatToFloat16(x[i]));
        }
    }

    /** All of a buffer allocated without {@link Gpus#poisoned}'s guard (q and the f32 caches here: filled by the test). */
    private static float[] exactly(GpuBackend be, Buffer b, long floats) {
        float[] all = new float[Math.toIntExact(floats)];
        be.download(b, 0, all, 0, all.length);
        return all;
    }

    private static Buffer upload(GpuBackend be, float[] x) {
        Buffer b = be.allocate(x.length);
        be.upload(x, 0, b, 0, x.length);
        return b;
    }

    /** An f16 cache holding {@code x}, written as the model appends rows: an f32 copy rounded into it. */
    private static Buffer half(GpuBackend be, float[] x) {
        Buffer h = be.allocateHalf(x.length, MemoryCategory.SELF_KV);
        try (Buffer f = upload(be, x)) {
            be.copy(f, 0, h, 0, x.length);
            be.synchronize(); // the rounding has read f before it is freed
        }
        return h;
    }
}
