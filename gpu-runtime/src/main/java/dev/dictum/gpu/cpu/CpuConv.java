package dev.dictum.gpu.cpu;

import dev.dictum.gpu.Epilogue;
import dev.dictum.gpu.HostTensor;

/**
 * Whisper's audio stem: conv1d with 3 taps and padding 1, then GELU. Done as im2col followed by
 * one GEMM, so it runs on the same tuned kernel as every linear layer: the weight
 * {@code [out, in, 3]} is read as the matrix {@code [out, in * 3]} and each output frame's column
 * holds {@code (in channel, tap)} in that order.
 */
final class CpuConv {
    private CpuConv() {
    }

    static void conv3Gelu(float[] in, boolean channelMajor, int inChannels, int inFrames, HostTensor w,
            float[] bias, int stride, float[] out) {
        long[] s = w.shape();
        if (s.length != 3 || s[1] != inChannels || s[2] != 3) {
            throw new IllegalArgumentException("conv weight " + w.describe() + " for " + inChannels + " channels");
        }
        int outFrames = (inFrames - 1) / stride + 1;
        int width = inChannels * 3;
        float[] cols = new float[outFrames * width];
        CpuThreads.forRange(outFrames, (lo, hi) -> {
            for (int t = lo; t < hi; t++) {
                int base = t * width;
                for (int tap = 0; tap < 3; tap++) {
                    int src = t * stride + tap - 1;
                    if (src < 0 || src >= inFrames) {
                        continue; // zero padding: cols is zero-initialised
                    }
                    for (int c = 0; c < inChannels; c++) {
                        cols[base + c * 3 + tap] = channelMajor ? in[c * inFrames + src] : in[src * inChannels + c];
                    }
                }
            }
        });
        HostTensor matrix = new HostTensor(w.name(), w.dtype(), new long[] {s[0], width}, w.data(), w.rowScales());
        CpuLinear.run(cols, 0, outFrames, matrix, bias, out, 0, Epilogue.GELU);
    }
}
