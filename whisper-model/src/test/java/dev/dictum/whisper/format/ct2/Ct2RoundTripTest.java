package dev.dictum.whisper.format.ct2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.gpu.DType;
import dev.dictum.gpu.HostTensor;
import dev.dictum.whisper.testutil.Ct2Writer;
import dev.dictum.whisper.testutil.HostTensorValues;
import dev.dictum.whisper.testutil.RandomWhisper;
import dev.dictum.whisper.testutil.TinyWhisper;
import java.nio.file.Path;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Ct2Writer then Ct2ModelDirectory: fused projections split back into the canonical tensors, every dtype. */
class Ct2RoundTripTest {
    private static final long SEED = 11;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Ct2Writer.Type.class)
    void everyCanonicalTensorComesBack(Ct2Writer.Type type) {
        Ct2Writer.write(dir, TinyWhisper.EN, SEED, type);
        try (Ct2ModelDirectory m = Ct2ModelDirectory.open(dir)) {
            assertThat(m.dims()).isEqualTo(TinyWhisper.EN);
            Map<String, RandomWhisper.Tensor> want = RandomWhisper.generate(TinyWhisper.EN, SEED);
            assertThat(m.names()).containsExactlyElementsOf(want.keySet());
            for (var e : want.entrySet()) {
                HostTensor t = m.tensor(e.getKey(), e.getValue().shape());
                assertThat(t.dtype()).as(e.getKey()).isEqualTo(expectedType(type, e.getKey()));
                assertClose(e.getKey(), t, e.getValue().values());
            }
        }
    }

    @Test
    void multilingualVocabularyConfigAndAlignmentHeads() throws java.io.IOException {
        Ct2Writer.write(dir, TinyWhisper.MULTI, SEED, Ct2Writer.Type.INT8_FLOAT16);
        try (Ct2ModelDirectory m = Ct2ModelDirectory.open(dir)) {
            assertThat(m.dims()).isEqualTo(TinyWhisper.MULTI);
            assertThat(m.vocabulary().textTokenCount()).isEqualTo(50257);
            assertThat(m.vocabulary().languageCodes()).hasSize(100).startsWith("en", "zh").endsWith("yue");
            assertThat(m.vocabulary().specials().noTimestamps()).isEqualTo(50364);
            assertThat(m.generation().beginSuppressTokens()).containsExactly(220, 50257);
            assertThat(m.generation().suppressTokens()).contains(50258, 50359, 50363).doesNotContain(50257, 50364);
            assertThat(m.alignmentHeads()).containsExactly(new AlignmentHead(1, 0), new AlignmentHead(1, 1));
        }
        java.nio.file.Files.writeString(dir.resolve("config.json"), "{\"lang_ids\": [50259, 50260]}");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Ct2ModelDirectory.open(dir))
                .isInstanceOf(dev.dictum.whisper.format.ModelFormatException.class)
                .hasMessage(dir.resolve("config.json") + ": lang_ids lack token 50261; a model of 51866 tokens has 100"
                        + " languages from 50259");
    }

    /** What the converter leaves each tensor as: weights int8 where quantized, everything else the float type. */
    private static DType expectedType(Ct2Writer.Type type, String name) {
        boolean weight = name.endsWith(".weight") && !name.contains("ln") && !name.contains("positional");
        return switch (type) {
            case FLOAT32 -> DType.F32;
            case FLOAT16 -> DType.F16;
            case BFLOAT16 -> DType.BF16;
            case INT8 -> weight ? DType.I8 : DType.F32;
            case INT8_FLOAT16 -> weight ? DType.I8 : DType.F16;
        };
    }

    /** int8: half a step of each row's 1/scale = max|row| / 127; plain types: their own rounding. */
    static void assertClose(String name, HostTensor t, float[] want) {
        float[] got = HostTensorValues.of(t);
        int rows = Math.toIntExact(t.dim(0));
        int cols = want.length / rows;
        for (int r = 0; r < rows; r++) {
            float amax = 0;
            for (int j = 0; j < cols; j++) {
                amax = Math.max(amax, Math.abs(want[r * cols + j]));
            }
            for (int j = 0; j < cols; j++) {
                int i = r * cols + j;
                float expected = switch (t.dtype()) {
                    case F16 -> dev.dictum.whisper.testutil.Rounding.f16(want[i]);
                    case BF16 -> dev.dictum.whisper.testutil.Rounding.bf16(want[i]);
                    default -> want[i];
                };
                float tolerance = t.dtype() == DType.I8 ? 0.501f * amax / 127 + 1e-7f : 0f;
                if (Math.abs(got[i] - expected) > tolerance) {
                    assertThat(got[i]).as(name + "[" + i + "] " + t.dtype()).isCloseTo(expected, Offset.offset(tolerance));
                }
            }
        }
    }
}
