package dev.dictum.whisper.testutil;

/** The value an f32 becomes when stored as f16 or bf16 (round to nearest even), for exact comparisons. */
public final class Rounding {
    private Rounding() {
    }

    public static float f16(float x) {
        return Float.float16ToFloat(Float.floatToFloat16(x));
    }

    public static float bf16(float x) {
        int bits = Float.floatToRawIntBits(x);
        bits += 0x7fff + ((bits >>> 16) & 1);
        return Float.intBitsToFloat(bits & 0xffff0000);
    }
}
