package dev.dictum.gpu.cpu;

import dev.dictum.gpu.Epilogue;
import dev.dictum.gpu.HostTensor;

/** The backend's linear op on the tuned kernels: dense rows in, dense rows out, fused epilogue. */
final class CpuLinear {
    private CpuLinear() {
    }

    /** A linear layer of the model: few rows of an F16 or Q8_0 matrix take the decoder's panel layout. */
    static void run(float[] x, int xOff, int rows, CpuWeight weight, float[] bias, float[] out, int outOff,
            Epilogue epilogue) {
        DecoderPanels panels = rows <= MatMul.SMALL_M ? weight.decodePanels() : weight.builtPanels();
        if (panels == null) {
            run(x, xOff, rows, weight.source(), bias, out, outOff, epilogue);
            return;
        }
        HostTensor w = weight.source();
        int n = Math.toIntExact(w.rows());
        int k = Math.toIntExact(w.cols());
        var e = switch (epilogue) {
            case NONE -> KernelEpilogue.of(bias, false);
            case GELU -> KernelEpilogue.of(bias, true);
            case ADD -> new KernelEpilogue(1f, bias, false, out, outOff, n);
        };
        if (rows <= MatMul.SMALL_M) {
            panels.run(x, xOff, k, rows, out, outOff, n, e);
        } else {
            // Many rows of a matrix the decoder has re-laid (a draft's logits at every position): the
            // GEMM, packing from the panels so the file's released pages stay released (CpuWeight).
            Gemm.run(x, xOff, k, rows, n, k, new GemmPanels.FromDecoderPanels(panels), out, outOff, n, e);
        }
    }

    static void run(float[] x, int xOff, int rows, HostTensor w, float[] bias, float[] out, int outOff,
            Epilogue epilogue) {
        int n = Math.toIntExact(w.rows());
        int k = Math.toIntExact(w.cols());
        switch (epilogue) {
            case NONE -> MatMul.linear(x, xOff, k, rows, w, bias, out, outOff, n);
            case GELU -> MatMul.linearGelu(x, xOff, k, rows, w, bias, out, outOff, n);
            case ADD -> MatMul.linearResidual(x, xOff, k, rows, w, bias, out, outOff, n, out, outOff, n);
        }
    }
}
