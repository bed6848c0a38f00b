package dev.dictum.gpu.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.gpu.HostTensor;

/** Double-precision references and the error measures the tests share. */
final class Reference {

    private Reference() {
    }

    /** C = A · Wᵀ (+ bias) in double, from the dequantised weights, for the given rows of A only. */
    static double[][] linear(float[] a, int aOff, int lda, int[] rows, HostTensor w, float[] bias) {
        int n = (int) w.dim(0);
        int k = (int) (w.elementCount() / n);
        double[][] out = new double[rows.length][n];
        float[] wr = new float[k];
        for (int j = 0; j < n; j++) {
            Dequant.row(w, j, wr, 0);
            for (int r = 0; r < rows.length; r++) {
                int ab = aOff + rows[r] * lda;
                double s = bias == null ? 0 : bias[j];
                for (int i = 0; i < k; i++) {
                    s += (double) a[ab + i] * wr[i];
                }
                out[r][j] = s;
            }
        }
        return out;
    }

    static double gelu(double x) {
        return 0.5 * x * erfc(-x / Math.sqrt(2));
    }

    /** erf to ~1e-14: Maclaurin series (|x| ≤ 3, in double the alternating terms lose < 4 digits). */
    static double erf(double x) {
        if (Math.abs(x) > 3) {
            return Math.signum(x) * (1 - erfcContinuedFraction(Math.abs(x)));
        }
        double term = x;
        double sum = x;
        for (int n = 1; n < 200; n++) {
            term *= -x * x / n;
            double add = term / (2 * n + 1);
            sum += add;
            if (Math.abs(add) < 1e-17 * Math.abs(sum)) {
                break;
            }
        }
        return 2 / Math.sqrt(Math.PI) * sum;
    }

    static double erfc(double x) {
        if (x > 3) {
            return erfcContinuedFraction(x);
        }
        if (x < -3) {
            return 2 - erfcContinuedFraction(-x);
        }
        return 1 - erf(x);
    }

    /** erfc for x &gt; 3 by its continued fraction (Lentz), converging in a few dozen terms there. */
    static double erfcContinuedFraction(double x) {
        // erfc(x) = exp(-x²)/√π · 1/(x + 1/2/(x + 1/(x + 3/2/(x + 2/(x + ...)))))
        double tiny = 1e-300;
        double f = x;
        double c = x;
        double d = 0;
        for (int n = 1; n < 500; n++) {
            double an = n / 2.0;
            d = x + an * d;
            d = Math.abs(d) < tiny ? tiny : d;
            c = x + an / c;
            c = Math.abs(c) < tiny ? tiny : c;
            d = 1 / d;
            double delta = c * d;
            f *= delta;
            if (Math.abs(delta - 1) < 1e-16) {
                break;
            }
        }
        return Math.exp(-x * x) / Math.sqrt(Math.PI) / f;
    }

    /** ‖out − ref‖ / ‖ref‖ over the given rows (row r of ref is row rows[r] of out). */
    static double relativeError(float[] c, int cOff, int ldc, int[] rows, double[][] ref) {
        double num = 0;
        double den = 0;
        for (int r = 0; r < rows.length; r++) {
            for (int j = 0; j < ref[r].length; j++) {
                double o = c[cOff + rows[r] * ldc + j];
                double d = o - ref[r][j];
                num += d * d;
                den += ref[r][j] * ref[r][j];
            }
        }
        return Math.sqrt(num / Math.max(den, 1e-300));
    }

    static void assertAllFinite(float[] c, int cOff, int ldc, int m, int n) {
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                float v = c[cOff + i * ldc + j];
                if (!Float.isFinite(v)) {
                    assertThat(v).as("C[%d,%d] was not written (still poisoned)", i, j).isFinite();
                }
            }
        }
    }

    /** Every row when m is small; else the first and last 8 and every 23rd (covers all tile positions). */
    static int[] sampleRows(int m) {
        if (m <= 64) {
            int[] all = new int[m];
            for (int i = 0; i < m; i++) {
                all[i] = i;
            }
            return all;
        }
        java.util.TreeSet<Integer> s = new java.util.TreeSet<>();
        for (int i = 0; i < 8; i++) {
            s.add(i);
            s.add(m - 1 - i);
        }
        for (int i = 0; i < m; i += 23) {
            s.add(i);
        }
        return s.stream().mapToInt(Integer::intValue).toArray();
    }
}
