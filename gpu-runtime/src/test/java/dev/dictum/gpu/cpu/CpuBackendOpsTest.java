package dev.dictum.gpu.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.DType;
import dev.dictum.gpu.Epilogue;
import dev.dictum.gpu.HostTensor;
import dev.dictum.gpu.Weight;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every backend op of the CPU backend against a double-precision reference written plainly in the
 * test, on fresh random inputs at Whisper shapes and at odd sizes, with outputs poisoned (NaN)
 * before each run. These references are what the GPU backends will be held to as well.
 */
class CpuBackendOpsTest {
    private static final Arena ARENA = Arena.ofShared();
    private final Backend be = new CpuBackend();
    private final SplittableRandom rnd = new SplittableRandom(42);

    @AfterAll
    static void free() {
        ARENA.close();
    }

    @ParameterizedTest
    @CsvSource({"1500,384,384", "3,33,7", "1,256,51864", "17,64,129"})
    void linearWithEachEpilogue(int rows, int in, int out) {
        float[] x = random(rows * in);
        float[] w = random(out * in);
        float[] b = random(out);
        Weight wt = be.upload(f32("w", w, out, in));
        Weight bt = be.upload(f32("b", b, out));
        for (Epilogue ep : Epilogue.values()) {
            float[] start = random(rows * out);
            Buffer xb = buffer(x);
            Buffer ob = ep == Epilogue.ADD ? buffer(start) : poisoned(rows * out);
            be.linear(xb, 0, rows, wt, bt, ob, 0, ep);
            double[] ref = new double[rows * out];
            for (int r = 0; r < rows; r++) {
                for (int o = 0; o < out; o++) {
                    double s = b[o];
                    for (int i = 0; i < in; i++) {
                        s += (double) x[r * in + i] * w[o * in + i];
                    }
                    ref[r * out + o] = switch (ep) {
                        case NONE -> s;
                        case GELU -> gelu(s);
                        case ADD -> s + start[r * out + o];
                    };
                }
            }
            assertThat(relErr(download(ob, rows * out), ref)).as("linear %s", ep).isLessThan(1e-5);
        }
    }

    /** F16 weights with few rows take the decoder's panel layout; many rows the GEMM. */
    @ParameterizedTest
    @CsvSource({"1,256,51864", "5,384,129", "2,33,7", "16,64,1000", "17,64,100"})
    void linearF16AtDecoderAndEncoderRowCounts(int rows, int in, int out) {
        float[] x = random(rows * in);
        float[] w = random(out * in);
        float[] b = random(out);
        Weight wt = be.upload(f16("w", w, out, in));
        Weight bt = be.upload(f32("b", b, out));
        for (Epilogue ep : Epilogue.values()) {
            for (int repeat = 0; repeat < 2; repeat++) { // the second call reuses the built panels
                float[] start = random(rows * out);
                Buffer ob = ep == Epilogue.ADD ? buffer(start) : poisoned(rows * out);
                be.linear(buffer(x), 0, rows, wt, bt, ob, 0, ep);
                double[] ref = new double[rows * out];
                for (int r = 0; r < rows; r++) {
                    for (int o = 0; o < out; o++) {
                        double s = b[o];
                        for (int i = 0; i < in; i++) {
                            s += (double) x[r * in + i] * Float.float16ToFloat(Float.floatToFloat16(w[o * in + i]));
                        }
                        ref[r * out + o] = switch (ep) {
                            case NONE -> s;
                            case GELU -> gelu(s);
                            case ADD -> s + start[r * out + o];
                        };
                    }
                }
                assertThat(relErr(download(ob, rows * out), ref)).as("f16 linear %s", ep).isLessThan(1e-5);
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"80,3000,384,1,true", "384,3000,384,2,false", "5,11,7,2,false", "3,9,4,1,true"})
    void conv1dGelu(int cin, int frames, int cout, int stride, boolean channelMajor) {
        float[] in = random(cin * frames);
        float[] w = random(cout * cin * 3);
        float[] b = random(cout);
        int outFrames = (frames - 1) / stride + 1;
        Buffer ob = poisoned(outFrames * cout);
        be.conv1dGelu(buffer(in), channelMajor, cin, frames, be.upload(f32("w", w, cout, cin, 3)),
                be.upload(f32("b", b, cout)), stride, ob);
        double[] ref = new double[outFrames * cout];
        for (int t = 0; t < outFrames; t++) {
            for (int o = 0; o < cout; o++) {
                double s = b[o];
                for (int c = 0; c < cin; c++) {
                    for (int k = 0; k < 3; k++) {
                        int src = t * stride + k - 1;
                        if (src >= 0 && src < frames) {
                            float v = channelMajor ? in[c * frames + src] : in[src * cin + c];
                            s += (double) w[(o * cin + c) * 3 + k] * v;
                        }
                    }
                }
                ref[t * cout + o] = gelu(s);
            }
        }
        assertThat(relErr(download(ob, outFrames * cout), ref)).isLessThan(1e-5);
    }

    @ParameterizedTest
    @CsvSource({"1500,384", "1,256", "7,33", "5,1280"})
    void layerNormInPlaceAndNot(int rows, int cols) {
        float[] x = random(rows * cols);
        for (int i = 0; i < x.length; i++) {
            x[i] += 30f; // a large mean: the two-pass variance must not cancel
        }
        float[] g = random(cols);
        float[] b = random(cols);
        double[] ref = new double[rows * cols];
        for (int r = 0; r < rows; r++) {
            double mean = 0;
            for (int c = 0; c < cols; c++) {
                mean += x[r * cols + c];
            }
            mean /= cols;
            double var = 0;
            for (int c = 0; c < cols; c++) {
                var += Math.pow(x[r * cols + c] - mean, 2);
            }
            var /= cols;
            for (int c = 0; c < cols; c++) {
                ref[r * cols + c] = (x[r * cols + c] - mean) / Math.sqrt(var + 1e-5) * g[c] + b[c];
            }
        }
        Weight gw = be.upload(f32("g", g, cols));
        Weight bw = be.upload(f32("b", b, cols));
        Buffer out = poisoned(rows * cols);
        be.layerNorm(buffer(x), rows, cols, gw, bw, out);
        assertThat(relErr(download(out, rows * cols), ref)).isLessThan(1e-5);
        Buffer inPlace = buffer(x);
        be.layerNorm(inPlace, rows, cols, gw, bw, inPlace);
        assertThat(relErr(download(inPlace, rows * cols), ref)).isLessThan(1e-5);
    }

    @ParameterizedTest
    @CsvSource({
        "1,1500,1500,6,64,false", // encoder self-attention (tiny)
        "1,3,3,4,64,true", // decoder prompt, causal
        "3,1,9,4,64,true", // beams decoding one token against their caches
        "2,1,1500,4,64,false", // cross-attention of two beams
        "1,37,37,2,20,true", // odd sizes, a head size that is not a vector multiple
        "2,9,12,3,16,true",
        // the blocked path's channel loop: pairs of vectors, then the channels left one at a time (48 at 512 bits, 40 at 256)
        "1,21,29,2,48,true",
        "1,10,50,2,40,false",
        "1,1,224,6,64,true", // one token against 224 cached positions (issue 21: P·V in registers)
        "1,1,5,2,128,true", // a head of 8 vectors at 512 bits (64 is 8 at 256 bits)
        "2,1,33,3,72,false"})
    void attention(int batch, int queries, int keys, int heads, int hd, boolean causal) {
        int d = heads * hd;
        int ctx = keys + 5; // the cache holds more rows than are valid
        float[] q = random(batch * queries * d);
        float[] k = random(batch * ctx * d);
        float[] v = random(batch * ctx * d);
        int[] keyCounts = new int[batch];
        Arrays.fill(keyCounts, keys);
        Buffer out = poisoned(batch * queries * d);
        be.attention(buffer(q), d, batch, queries, buffer(k), buffer(v), 0, (long) ctx * d, d, keyCounts, heads, hd,
                causal, out);
        double[] ref = new double[batch * queries * d];
        for (int b = 0; b < batch; b++) {
            for (int h = 0; h < heads; h++) {
                for (int i = 0; i < queries; i++) {
                    int at = (b * queries + i) * d + h * hd;
                    int kv = b * ctx * d + h * hd;
                    AttentionReference.attend(e -> q[at + e], causal ? keys - queries + i + 1 : keys,
                            (j, e) -> k[kv + j * d + e], (j, e) -> v[kv + j * d + e], hd, ref, at);
                }
            }
        }
        assertThat(relErr(download(out, ref.length), ref)).isLessThan(1e-5);
    }

    /**
     * Backend.attentionRows (issue 22 item 4): beams reading their keys and values through row tables, against
     * float64, and bit for bit the strided attention over the same rows gathered into each beam's own block —
     * which is what makes beam search reordered by index give the transcripts of beam search reordered by copy.
     */
    @ParameterizedTest
    @CsvSource({
        "5,1,448,6,64,true,0", // tiny's beam-5 step at the full text context
        "5,1,37,20,64,true,0", // large-v3's heads, a short history
        "5,3,12,6,64,true,0", // several tokens per beam after a reorder
        "2,9,40,3,64,true,3", // the blocked path (8 queries or more), unaligned rows
        "3,2,130,3,17,false,1", // odd head size, not a vector multiple
        "2,1,65,2,128,true,0", // a head of 8 vectors at 512 bits
        "1,1,1,1,1,false,0"})
    void attentionThroughRowTables(int batch, int queries, int keys, int heads, int hd, boolean causal, int kvPad) {
        RowAttentionProblem p = new RowAttentionProblem(batch, queries, keys, heads, hd, causal, kvPad, rnd.nextLong());
        Buffer out = poisoned(p.outputFloats());
        be.attentionRows(buffer(p.q), p.qStride, batch, queries, buffer(p.k), buffer(p.v), p.kvStride,
                buffer(p.rowBits()), p.rowsStride, p.keys, heads, hd, causal, out);
        float[] got = download(out, p.outputFloats());
        assertThat(RowAttentionProblem.relErr(got, p.reference())).isLessThanOrEqualTo(1e-5);
        Buffer strided = poisoned(p.outputFloats());
        be.attention(buffer(p.q), p.qStride, batch, queries, buffer(p.gather(p.k)), buffer(p.gather(p.v)), 0,
                p.gatheredStride(), p.kvStride, p.keys, heads, hd, causal, strided);
        assertThat(Arrays.equals(got, download(strided, p.outputFloats())))
                .as("row tables and gathered rows give the same bits").isTrue();
    }

    @ParameterizedTest
    @CsvSource({"-1", "1000000"})
    void aRowTableEntryOutsideTheCacheIsRefused(int row) {
        RowAttentionProblem p = new RowAttentionProblem(2, 1, 10, 2, 16, true, 0, rnd.nextLong());
        p.rows[p.rowsStride + 4] = row;
        assertThatThrownBy(() -> be.attentionRows(buffer(p.q), p.qStride, 2, 1, buffer(p.k), buffer(p.v), p.kvStride,
                buffer(p.rowBits()), p.rowsStride, p.keys, 2, 16, true, poisoned(p.outputFloats())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sequence 1 key 4 names row " + row);
    }

    @ParameterizedTest
    @CsvSource({"1,1500,6,64", "5,1500,4,64", "3,77,2,20", "2,13,3,48", "1,1500,2,128", "1,31,2,72"})
    void crossAttentionOverTransposedKeys(int rows, int keys, int heads, int hd) {
        int d = heads * hd;
        int stride = keys + 11; // padding past the valid keys must be ignored
        float[] q = random(rows * d);
        float[] k = random(keys * d);
        float[] v = random(keys * d);
        Buffer kT = poisoned(d * stride);
        be.transpose(buffer(k), keys, d, kT, stride);
        float[] kTHost = download(kT, d * stride);
        for (int c = 0; c < d; c++) {
            for (int j = 0; j < keys; j++) {
                assertThat(kTHost[c * stride + j]).isEqualTo(k[j * d + c]);
            }
        }
        Buffer out = poisoned(rows * d);
        be.crossAttention(buffer(q), rows, kT, stride, buffer(v), keys, heads, hd, out);
        double[] ref = new double[rows * d];
        for (int r = 0; r < rows; r++) {
            for (int h = 0; h < heads; h++) {
                int at = r * d + h * hd;
                int head = h * hd;
                AttentionReference.attend(e -> q[at + e], keys, (j, e) -> k[j * d + head + e],
                        (j, e) -> v[j * d + head + e], hd, ref, at);
            }
        }
        assertThat(relErr(download(out, ref.length), ref)).isLessThan(1e-5);
    }

    @Test
    void embedAddsTokenAndPositionRows() {
        int vocab = 50;
        int ctx = 10;
        int cols = 24;
        float[] tok = random(vocab * cols);
        float[] pos = random(ctx * cols);
        int[] tokens = {3, 49, 0};
        int[] positions = {0, 9, 4};
        Buffer out = poisoned(3 * cols);
        be.embed(tokens, positions, 3, be.upload(f16("t", tok, vocab, cols)), be.upload(f32("p", pos, ctx, cols)), out);
        double[] ref = new double[3 * cols];
        for (int i = 0; i < 3; i++) {
            for (int c = 0; c < cols; c++) {
                ref[i * cols + c] = Float.float16ToFloat(Float.floatToFloat16(tok[tokens[i] * cols + c]))
                        + pos[positions[i] * cols + c];
            }
        }
        assertThat(relErr(download(out, ref.length), ref)).isLessThan(1e-6);
    }

    private float[] random(int n) {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = (float) rnd.nextGaussian();
        }
        return a;
    }

    private Buffer buffer(float[] host) {
        Buffer b = be.allocate(host.length);
        be.upload(host, 0, b, 0, host.length);
        return b;
    }

    private Buffer poisoned(int n) {
        float[] nan = new float[n];
        Arrays.fill(nan, Float.NaN);
        return buffer(nan);
    }

    private float[] download(Buffer b, int n) {
        float[] h = new float[n];
        be.download(b, 0, h, 0, n);
        return h;
    }

    private static HostTensor f32(String name, float[] v, long... shape) {
        MemorySegment s = ARENA.allocate((long) v.length * 4, 64);
        MemorySegment.copy(v, 0, s, ValueLayout.JAVA_FLOAT_UNALIGNED, 0, v.length);
        return new HostTensor(name, DType.F32, shape, s);
    }

    private static HostTensor f16(String name, float[] v, long... shape) {
        MemorySegment s = ARENA.allocate((long) v.length * 2, 64);
        for (int i = 0; i < v.length; i++) {
            s.set(ValueLayout.JAVA_SHORT_UNALIGNED, 2L * i, Float.floatToFloat16(v[i]));
        }
        return new HostTensor(name, DType.F16, shape, s);
    }

    private static double gelu(double x) {
        return 0.5 * x * (1 + erf(x / Math.sqrt(2)));
    }

    /** erf by its Taylor series / continued fraction in double: far more accurate than float kernels need. */
    private static double erf(double x) {
        double ax = Math.abs(x);
        double r;
        if (ax < 3) {
            double term = ax;
            double sum = ax;
            for (int n = 1; n < 200; n++) {
                term *= -ax * ax / n;
                sum += term / (2 * n + 1);
            }
            r = 2 / Math.sqrt(Math.PI) * sum;
        } else {
            // erfc continued fraction (Lentz), accurate for large |x|.
            double f = ax;
            double c = ax;
            double d = 0;
            for (int n = 1; n < 200; n++) {
                double an = n / 2.0;
                d = ax + an * d;
                d = 1 / d;
                c = ax + an / c;
                f *= c * d;
            }
            r = 1 - Math.exp(-ax * ax) / Math.sqrt(Math.PI) / f;
        }
        return x < 0 ? -r : r;
    }

    private static double relErr(float[] out, double[] ref) {
        double num = 0;
        double den = 0;
        for (int i = 0; i < ref.length; i++) {
            double d = out[i] - ref[i];
            num += d * d;
            den += ref[i] * ref[i];
        }
        return Math.sqrt(num / den);
    }
}
