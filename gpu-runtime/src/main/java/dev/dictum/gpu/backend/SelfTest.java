package dev.dictum.gpu.backend;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.DType;
import dev.dictum.gpu.Epilogue;
import dev.dictum.gpu.HostTensor;
import dev.dictum.gpu.Weight;
import dev.dictum.gpu.cpu.CpuBackend;
import java.lang.foreign.MemorySegment;
import java.util.Locale;
import java.util.Random;

/**
 * A small end-to-end check of a GPU backend against the CPU: a weight converted on the device, a
 * GEMM with GELU, a GEMV, a layer norm, each compared by relative L2 error. A backend is used only
 * after this passes (again after a failure).
 */
public final class SelfTest {
    /** f16 weights against the CPU's f32 reading of the same f16 values: only summation order differs. */
    static final double LIMIT = 1e-4;

    private SelfTest() {
    }

    /** What the self-test measured. */
    public record Result(boolean passed, double worstError, String detail) {
        public String describe() {
            return (passed ? "passed" : "FAILED") + String.format(Locale.ROOT, " (worst relative error %.1e; ",
                    worstError) + detail + ")";
        }
    }

    public static Result run(Backend gpu) {
        Random rnd = new Random(20261123);
        int rows = 19;
        int k = 80;
        int n = 70;
        float[] w = randomHalfExact(rnd, n * k);
        float[] b = randomHalfExact(rnd, n);
        float[] x = new float[rows * k];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) rnd.nextGaussian();
        }
        double worst = 0;
        StringBuilder detail = new StringBuilder();
        try (CpuBackend cpu = new CpuBackend()) {
            for (int r : new int[] {rows, 1}) {
                for (Epilogue e : new Epilogue[] {Epilogue.GELU, Epilogue.NONE}) {
                    float[] want = linear(cpu, x, r, w, b, n, k, e);
                    float[] got = linear(gpu, x, r, w, b, n, k, e);
                    double err = relErr(got, want);
                    worst = Math.max(worst, err);
                    detail.append(r == 1 ? "gemv " : "gemm ").append(e.name().toLowerCase(Locale.ROOT)).append(' ');
                }
            }
            float[] wantLn = layerNorm(cpu, x, rows, k, w, b);
            float[] gotLn = layerNorm(gpu, x, rows, k, w, b);
            worst = Math.max(worst, relErr(gotLn, wantLn));
            detail.append("layer_norm");
        }
        return new Result(worst <= LIMIT, worst, detail.toString());
    }

    private static float[] linear(Backend be, float[] x, int rows, float[] w, float[] b, int n, int k, Epilogue e) {
        Weight wt = be.upload(f16("selftest.w", w, n, k));
        Weight bt = be.upload(f16("selftest.b", b, n));
        try (Buffer xb = be.allocate((long) rows * k); Buffer out = be.allocate((long) rows * n)) {
            be.upload(x, 0, xb, 0, rows * k);
            be.linear(xb, 0, rows, wt, bt, out, 0, e);
            float[] o = new float[rows * n];
            be.download(out, 0, o, 0, o.length);
            return o;
        }
    }

    private static float[] layerNorm(Backend be, float[] x, int rows, int cols, float[] w, float[] b) {
        float[] g = new float[cols];
        float[] bias = new float[cols];
        System.arraycopy(w, 0, g, 0, cols);
        System.arraycopy(w, cols, bias, 0, cols);
        Weight gt = be.upload(f16("selftest.g", g, cols));
        Weight bt = be.upload(f16("selftest.bias", bias, cols));
        try (Buffer xb = be.allocate((long) rows * cols); Buffer out = be.allocate((long) rows * cols)) {
            be.upload(x, 0, xb, 0, rows * cols);
            be.layerNorm(xb, rows, cols, gt, bt, out);
            float[] o = new float[rows * cols];
            be.download(out, 0, o, 0, o.length);
            return o;
        }
    }

    /** Values exactly representable in f16, so both backends see the same weights. */
    static float[] randomHalfExact(Random rnd, int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = Float.float16ToFloat(Float.floatToFloat16((float) (rnd.nextGaussian() * 0.2)));
        }
        return v;
    }

    /** An f16 host tensor holding {@code v} (exactly, if v came from {@link #randomHalfExact}). */
    static HostTensor f16(String name, float[] v, long... shape) {
        short[] h = new short[v.length];
        for (int i = 0; i < v.length; i++) {
            h[i] = Float.floatToFloat16(v[i]);
        }
        MemorySegment seg = java.lang.foreign.Arena.ofAuto().allocate(2L * h.length, 2);
        MemorySegment.copy(h, 0, seg, java.lang.foreign.ValueLayout.JAVA_SHORT, 0, h.length);
        return new HostTensor(name, DType.F16, shape, seg);
    }

    static double relErr(float[] got, float[] want) {
        double num = 0;
        double den = 0;
        for (int i = 0; i < want.length; i++) {
            double d = (double) got[i] - want[i];
            num += d * d;
            den += (double) want[i] * want[i];
        }
        double e = Math.sqrt(num / Math.max(den, 1e-30));
        return Double.isNaN(e) ? Double.POSITIVE_INFINITY : e;
    }
}
