package dev.dictum.gpu.cpu;


import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/** Vector dot and axpy on heap arrays: the few-row attention products (decoder Q·Kᵀ and P·V). */
final class HeapKernels {

    private static final VectorSpecies<Float> F = CpuVectors.F;
    private static final int L = CpuVectors.L;

    private HeapKernels() {
    }

    static float dot(float[] a, int ao, float[] b, int bo, int k) {
        FloatVector a0 = FloatVector.zero(F), a1 = a0, a2 = a0, a3 = a0;
        int i = 0;
        for (; i <= k - 4 * L; i += 4 * L) {
            a0 = FloatVector.fromArray(F, a, ao + i).fma(FloatVector.fromArray(F, b, bo + i), a0);
            a1 = FloatVector.fromArray(F, a, ao + i + L).fma(FloatVector.fromArray(F, b, bo + i + L), a1);
            a2 = FloatVector.fromArray(F, a, ao + i + 2 * L).fma(FloatVector.fromArray(F, b, bo + i + 2 * L), a2);
            a3 = FloatVector.fromArray(F, a, ao + i + 3 * L).fma(FloatVector.fromArray(F, b, bo + i + 3 * L), a3);
        }
        for (; i <= k - L; i += L) {
            a0 = FloatVector.fromArray(F, a, ao + i).fma(FloatVector.fromArray(F, b, bo + i), a0);
        }
        float s = CpuVectors.sum(a0.add(a1).add(a2.add(a3)));
        for (; i < k; i++) {
            s += a[ao + i] * b[bo + i];
        }
        return s;
    }

    /** y[yo .. yo+n) += s · x[xo .. xo+n). */
    static void axpy(float s, float[] x, int xo, float[] y, int yo, int n) {
        FloatVector sv = FloatVector.broadcast(F, s);
        int i = 0;
        for (; i <= n - L; i += L) {
            FloatVector.fromArray(F, x, xo + i).fma(sv, FloatVector.fromArray(F, y, yo + i)).intoArray(y, yo + i);
        }
        for (; i < n; i++) {
            y[yo + i] = Math.fma(s, x[xo + i], y[yo + i]);
        }
    }
}
