package dev.dictum.whisper.format.ggml;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.gpu.DType;
import dev.dictum.whisper.testutil.Rounding;
import org.assertj.core.data.Offset;

/**
 * How far a stored value may be from the f32 it was made from, per 32-value block: f32 exact,
 * f16 its own rounding, the ggml block types half a step plus the clamp of the extreme value
 * (q4_0 and q5_0 map -max to one step short) and their f16 scale's rounding.
 */
final class QuantTolerance {
    private QuantTolerance() {
    }

    static void assertClose(String name, DType dtype, float[] want, float[] got) {
        assertThat(got).as(name).hasSize(want.length);
        for (int b = 0; b < want.length; b += 32) {
            int end = Math.min(want.length, b + 32);
            float amax = 0;
            float min = Float.MAX_VALUE;
            float max = -Float.MAX_VALUE;
            for (int j = b; j < end; j++) {
                amax = Math.max(amax, Math.abs(want[j]));
                min = Math.min(min, want[j]);
                max = Math.max(max, want[j]);
            }
            float tolerance = switch (dtype) {
                case F32 -> 0f;
                case F16, BF16 -> -1f; // checked exactly below
                case Q8_0 -> 0.6f * amax / 127;
                case Q5_0 -> 1.1f * amax / 16;
                case Q4_0 -> 1.1f * amax / 8;
                case Q5_1 -> 0.6f * (max - min) / 31 + 1e-3f * Math.abs(min);
                case I8 -> throw new IllegalArgumentException("row-scaled");
            };
            for (int j = b; j < end; j++) {
                float expected = tolerance >= 0 ? want[j] : dtype == DType.F16
                        ? Rounding.f16(want[j]) : Rounding.bf16(want[j]);
                if (Math.abs(got[j] - expected) > Math.max(tolerance, 0) + 1e-7f) {
                    assertThat(got[j]).as(name + "[" + j + "] " + dtype).isCloseTo(expected,
                            Offset.offset(Math.max(tolerance, 0) + 1e-7f));
                }
            }
        }
    }
}
