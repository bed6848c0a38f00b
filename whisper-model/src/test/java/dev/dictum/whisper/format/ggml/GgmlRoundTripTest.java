package dev.dictum.whisper.format.ggml;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.gpu.DType;
import dev.dictum.gpu.HostTensor;
import dev.dictum.whisper.testutil.GgmlWriter;
import dev.dictum.whisper.testutil.HostTensorValues;
import dev.dictum.whisper.testutil.RandomWhisper;
import dev.dictum.whisper.testutil.TinyWhisper;
import dev.dictum.whisper.tokenizer.SpecialTokens;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** GgmlWriter then GgmlModelFile: every tensor back, with the type whisper.cpp gives it, within its type's error. */
class GgmlRoundTripTest {
    private static final long SEED = 7;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(GgmlWriter.Type.class)
    void everyTensorComesBack(GgmlWriter.Type type) {
        Path file = GgmlWriter.write(dir.resolve("m.bin"), TinyWhisper.EN, SEED, type).file();
        try (GgmlModelFile f = GgmlModelFile.open(file)) {
            assertThat(f.dims()).isEqualTo(TinyWhisper.EN);
            assertThat(f.ftype()).isEqualTo(type.ftype);
            Map<String, RandomWhisper.Tensor> want = RandomWhisper.generate(TinyWhisper.EN, SEED);
            assertThat(f.names()).containsExactlyElementsOf(want.keySet());
            for (var e : want.entrySet()) {
                HostTensor t = f.tensor(e.getKey(), e.getValue().shape());
                int ggmlType = GgmlWriter.tensorType(e.getKey(), e.getKey().endsWith("conv1.bias")
                        || e.getKey().endsWith("conv2.bias") ? 2 : e.getValue().shape().length, type);
                assertThat(t.dtype()).as(e.getKey()).isEqualTo(GgmlType.byId(ggmlType).dtype);
                QuantTolerance.assertClose(e.getKey(), t.dtype(), e.getValue().values(), HostTensorValues.of(t));
            }
        }
    }

    @Test
    void multilingualVocabulariesOfBothSizes() {
        for (var dims : new dev.dictum.whisper.format.WhisperDims[] {TinyWhisper.MULTI, TinyWhisper.MULTI_V2}) {
            Path file = GgmlWriter.write(dir.resolve("m" + dims.nVocab() + ".bin"), dims, SEED, GgmlWriter.Type.Q4_0)
                    .file();
            try (GgmlModelFile f = GgmlModelFile.open(file)) {
                SpecialTokens s = f.vocabulary().specials();
                assertThat(f.vocabulary().textTokenCount()).isEqualTo(50257);
                assertThat(f.vocabulary().languageCodes()).hasSize(dims.nVocab() == 51866 ? 100 : 99);
                assertThat(s.noTimestamps()).isEqualTo(dims.nVocab() == 51866 ? 50364 : 50363);
                assertThat(f.melFilters().nMel()).isEqualTo(dims.nMels());
                assertThat(f.generation().beginSuppressTokens()).containsExactly(220, 50257);
            }
        }
    }
}
