package dev.dictum.whisper.testutil;

/**
 * ggml's reference quantizers (ggml-quants.c quantize_row_*_ref), one block of 32 values at a
 * time, written to a {@link LeOutput} in the block layouts of ggml-common.h.
 */
final class GgmlQuantizer {
    static final int QK = 32;

    private GgmlQuantizer() {
    }

    /** d = max|x| / 127, q = round(x / d) (C roundf: halves away from zero). */
    static void q8_0(float[] x, int off, LeOutput out) {
        float amax = 0;
        for (int j = 0; j < QK; j++) {
            amax = Math.max(amax, Math.abs(x[off + j]));
        }
        float d = amax / 127;
        float id = d != 0 ? 1.0f / d : 0.0f;
        out.f16(d);
        for (int j = 0; j < QK; j++) {
            float v = x[off + j] * id;
            out.u8((int) Math.copySign(Math.floor(Math.abs((double) v) + 0.5), v));
        }
    }

    /** d = (the value of largest magnitude) / -8; nibble = min(15, (int8)(x / d + 8.5)). */
    static void q4_0(float[] x, int off, LeOutput out) {
        float max = signedMax(x, off);
        float d = max / -8;
        float id = d != 0 ? 1.0f / d : 0.0f;
        out.f16(d);
        for (int j = 0; j < QK / 2; j++) {
            int lo = Math.min(15, (byte) (int) (x[off + j] * id + 8.5f));
            int hi = Math.min(15, (byte) (int) (x[off + QK / 2 + j] * id + 8.5f));
            out.u8(lo | (hi << 4));
        }
    }

    /** d = (the value of largest magnitude) / -16; q5 = min(31, (int8)(x / d + 16.5)), bit 4 in qh. */
    static void q5_0(float[] x, int off, LeOutput out) {
        float max = signedMax(x, off);
        float d = max / -16;
        float id = d != 0 ? 1.0f / d : 0.0f;
        int[] q = new int[QK];
        for (int j = 0; j < QK; j++) {
            q[j] = Math.min(31, (byte) (int) (x[off + j] * id + 16.5f));
        }
        out.f16(d);
        fiveBits(q, out);
    }

    /** d = (max - min) / 31, m = min; q5 = (uint8)((x - min) / d + 0.5). */
    static void q5_1(float[] x, int off, LeOutput out) {
        float min = Float.MAX_VALUE;
        float max = -Float.MAX_VALUE;
        for (int j = 0; j < QK; j++) {
            min = Math.min(min, x[off + j]);
            max = Math.max(max, x[off + j]);
        }
        float d = (max - min) / 31;
        float id = d != 0 ? 1.0f / d : 0.0f;
        int[] q = new int[QK];
        for (int j = 0; j < QK; j++) {
            q[j] = ((int) ((x[off + j] - min) * id + 0.5f)) & 0xff;
        }
        out.f16(d);
        out.f16(min);
        fiveBits(q, out);
    }

    /** uint32 qh (bit j = bit 4 of value j), then 16 bytes: low nibbles of values j and j + 16. */
    private static void fiveBits(int[] q, LeOutput out) {
        int qh = 0;
        for (int j = 0; j < QK; j++) {
            qh |= ((q[j] & 0x10) >>> 4) << j;
        }
        out.i32(qh);
        for (int j = 0; j < QK / 2; j++) {
            out.u8((q[j] & 0x0f) | ((q[j + QK / 2] & 0x0f) << 4));
        }
    }

    private static float signedMax(float[] x, int off) {
        float amax = 0;
        float max = 0;
        for (int j = 0; j < QK; j++) {
            if (amax < Math.abs(x[off + j])) {
                amax = Math.abs(x[off + j]);
                max = x[off + j];
            }
        }
        return max;
    }
}
