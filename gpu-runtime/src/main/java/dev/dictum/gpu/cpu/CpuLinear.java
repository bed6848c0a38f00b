package dev.dictum.gpu.cpu;

import dev.dictum.gpu.Epilogue;
import dev.dictum.gpu.HostTensor;

/** The backend's linear op on the tuned kernels: dense rows in, dense rows out, fused epilogue. */
final class CpuLinear {
    private CpuLinear() {
    }

    static void run(float[] x, int xOff, int rows, HostTensor w, float[] bias, float[] out, int outOff,
            Epilogue epilogue) {
        int n = Math.toIntExact(w.dim(0));
        int k = Math.toIntExact(w.elementCount() / n);
        switch (epilogue) {
            case NONE -> MatMul.linear(x, xOff, k, rows, w, bias, out, outOff, n);
            case GELU -> MatMul.linearGelu(x, xOff, k, rows, w, bias, out, outOff, n);
            case ADD -> MatMul.linearResidual(x, xOff, k, rows, w, bias, out, outOff, n, out, outOff, n);
        }
    }
}
