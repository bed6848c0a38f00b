package dev.dictum.whisper.format.hf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.gpu.DType;
import dev.dictum.gpu.HostTensor;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.testutil.RandomWhisper;
import dev.dictum.whisper.testutil.SafetensorsWriter;
import dev.dictum.whisper.tokenizer.SpecialTokens;
import dev.dictum.whisper.tokenizer.SuppressTokens;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Random models written by {@link SafetensorsWriter} read back by {@link HfModelDirectory}. */
class HfRoundTripTest {
    static final WhisperDims SMALL = new WhisperDims(80, 16, 32, 2, 2, 51864, 8, 32, 2, 2);
    private static final long SEED = 7;
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    @TempDir
    Path tmp;

    @ParameterizedTest
    @EnumSource(value = DType.class, names = {"F32", "F16", "BF16"})
    void tinyModelReadsBackEqual(DType dtype) {
        Path dir = SafetensorsWriter.writeModel(tmp.resolve("tiny"), RandomWhisper.TINY, SEED, dtype);
        try (HfModelDirectory m = HfModelDirectory.open(dir)) {
            assertThat(m.dims()).isEqualTo(RandomWhisper.TINY);
            assertThat(m.vocabulary().specials()).isEqualTo(SpecialTokens.forVocabSize(51865));
            assertEqualWeights(m, RandomWhisper.TINY, dtype);
        }
    }

    private static void assertEqualWeights(HfModelDirectory m, WhisperDims dims, DType dtype) {
        Map<String, long[]> shapes = RandomWhisper.shapes(dims);
        assertThat(m.names()).containsExactlyInAnyOrderElementsOf(shapes.keySet());
        shapes.forEach((name, shape) -> {
            float[] want = RandomWhisper.values(name, shape, SEED).values();
            HostTensor t = m.tensor(name, shape);
            assertThat(t.dtype()).isEqualTo(dtype);
            MemorySegment d = t.data();
            for (int i = 0; i < want.length; i++) {
                float got = switch (dtype) {
                    case F32 -> d.getAtIndex(F32, i);
                    case F16 -> Float.float16ToFloat(d.getAtIndex(I16, i));
                    default -> SafetensorsWriter.fromBf16(d.getAtIndex(I16, i));
                };
                float w = want[i];
                boolean ok = switch (dtype) {
                    case F32 -> got == w;
                    // f16: exactly the round-to-nearest-even value
                    case F16 -> got == Float.float16ToFloat(Float.floatToFloat16(w));
                    // bf16 keeps 8 significant bits: rounding error at most half a unit in the last place
                    default -> Math.abs(got - w) <= Math.scalb(Math.ulp(w), 15); // half of 2^16 f32 ulps
                };
                if (!ok) {
                    throw new AssertionError(name + "[" + i + "]: wrote " + w + ", read " + got + " as " + dtype);
                }
            }
        });
    }

    @Test
    void bf16RoundsToNearestEven() {
        // 1 + 2^-8 is halfway between two bf16 values: ties go to the even mantissa (1.0).
        assertThat(SafetensorsWriter.fromBf16(SafetensorsWriter.toBf16(1f + 0x1p-8f))).isEqualTo(1f);
        assertThat(SafetensorsWriter.fromBf16(SafetensorsWriter.toBf16(1f + 3 * 0x1p-8f))).isEqualTo(1f + 0x1p-6f);
        assertThat(SafetensorsWriter.fromBf16(SafetensorsWriter.toBf16(1f + 0x1p-8f + 0x1p-20f)))
                .isEqualTo(1f + 0x1p-7f);
        assertThat(Float.isNaN(SafetensorsWriter.fromBf16(SafetensorsWriter.toBf16(Float.NaN)))).isTrue();
    }

    @Test
    void shardedModelReadsBackEqual() {
        Path dir = SafetensorsWriter.writeModel(tmp.resolve("sharded"), SMALL, SEED, DType.F32, 3);
        assertThat(dir.resolve("model-00003-of-00003.safetensors")).exists();
        assertThat(dir.resolve("model.safetensors")).doesNotExist();
        try (HfModelDirectory m = HfModelDirectory.open(dir)) {
            assertEqualWeights(m, SMALL, DType.F32);
        }
    }

    @Test
    void ninetyNineLanguageVariantHasTheLargeV2Ids() {
        WhisperDims dims = new WhisperDims(80, 16, 32, 2, 1, 51865, 8, 32, 2, 1);
        Path dir = SafetensorsWriter.writeModel(tmp.resolve("v2"), dims, SEED, DType.F16);
        try (HfModelDirectory m = HfModelDirectory.open(dir)) {
            SpecialTokens s = m.vocabulary().specials();
            assertThat(s.translate()).isEqualTo(50358);
            assertThat(s.noTimestamps()).isEqualTo(50363);
            assertThat(m.vocabulary().languageCodes()).hasSize(99).endsWith("su").doesNotContain("yue");
            assertThat(m.generation().suppressTokens())
                    .containsExactly(SuppressTokens.openAiDefault(m.tokenizer(), s));
        }
    }

    @Test
    void largeV3LayoutUsesToyMultiTokenizer() {
        WhisperDims dims = new WhisperDims(128, 16, 32, 2, 1, 51866, 8, 32, 2, 1);
        Path dir = SafetensorsWriter.writeModel(tmp.resolve("v3"), dims, SEED, DType.BF16);
        try (HfModelDirectory m = HfModelDirectory.open(dir)) {
            assertThat(m.vocabulary().languageCodes()).hasSize(100).endsWith("yue");
            assertThat(m.generation().suppressTokens()).hasSize(88);
            assertEqualWeights(m, dims, DType.BF16);
        }
    }
}
