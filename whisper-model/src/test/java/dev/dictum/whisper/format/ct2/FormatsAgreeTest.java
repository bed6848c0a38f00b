package dev.dictum.whisper.format.ct2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.gpu.DType;
import dev.dictum.gpu.HostTensor;
import dev.dictum.whisper.format.ggml.GgmlModelFile;
import dev.dictum.whisper.testutil.Ct2Writer;
import dev.dictum.whisper.testutil.GgmlWriter;
import dev.dictum.whisper.testutil.HostTensorValues;
import dev.dictum.whisper.testutil.TinyWhisper;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The same random weights written as ggml and as CTranslate2 read back as the same canonical model. */
class FormatsAgreeTest {
    private static final long SEED = 3;

    @TempDir
    Path dir;

    @Test
    void float32IsBitIdentical() {
        Path ggml = GgmlWriter.write(dir.resolve("m.bin"), TinyWhisper.MULTI, SEED, GgmlWriter.Type.F32).file();
        Ct2Writer.write(dir.resolve("ct2"), TinyWhisper.MULTI, SEED, Ct2Writer.Type.FLOAT32);
        try (GgmlModelFile g = GgmlModelFile.open(ggml); Ct2ModelDirectory c = Ct2ModelDirectory.open(dir.resolve("ct2"))) {
            assertThat(c.dims()).isEqualTo(g.dims());
            assertThat(c.names()).containsExactlyElementsOf(g.names());
            for (String name : g.names()) {
                HostTensor a = g.tensor(name, shape(g, name));
                HostTensor b = c.tensor(name, a.shape());
                assertThat(a.dtype()).isEqualTo(DType.F32);
                assertThat(b.dtype()).isEqualTo(DType.F32);
                assertThat(b.data().toArray(ValueLayout.JAVA_BYTE)).as(name).isEqualTo(a.data().toArray(ValueLayout.JAVA_BYTE));
            }
            assertThat(c.vocabulary().languageCodes()).isEqualTo(g.vocabulary().languageCodes());
            for (int id = 0; id < g.vocabulary().textTokenCount(); id++) {
                assertThat(c.vocabulary().bytes(id)).isEqualTo(g.vocabulary().bytes(id));
            }
            assertThat(c.generation().suppressTokens()).isEqualTo(g.generation().suppressTokens());
            assertThat(c.generation().beginSuppressTokens()).isEqualTo(g.generation().beginSuppressTokens());
        }
    }

    @Test
    void q8_0AndInt8AgreeWithinBothErrors() {
        Path ggml = GgmlWriter.write(dir.resolve("m.bin"), TinyWhisper.EN, SEED, GgmlWriter.Type.Q8_0).file();
        Ct2Writer.write(dir.resolve("ct2"), TinyWhisper.EN, SEED, Ct2Writer.Type.INT8);
        try (GgmlModelFile g = GgmlModelFile.open(ggml); Ct2ModelDirectory c = Ct2ModelDirectory.open(dir.resolve("ct2"))) {
            for (String name : g.names()) {
                HostTensor a = g.tensor(name, shape(g, name));
                HostTensor b = c.tensor(name, a.shape());
                float[] x = HostTensorValues.of(a);
                float[] y = HostTensorValues.of(b);
                int rows = Math.toIntExact(a.dim(0));
                int cols = x.length / rows;
                for (int r = 0; r < rows; r++) {
                    float amax = 0;
                    for (int j = 0; j < cols; j++) {
                        amax = Math.max(amax, Math.abs(x[r * cols + j]));
                    }
                    // Each is within ~half a step of max|row| / 127 of the f32 (f16 conv kernels: less).
                    float tolerance = 1.2f * amax / 127 + 1e-6f;
                    for (int j = 0; j < cols; j++) {
                        int i = r * cols + j;
                        if (Math.abs(x[i] - y[i]) > tolerance) {
                            assertThat(y[i]).as(name + "[" + i + "]").isCloseTo(x[i], Offset.offset(tolerance));
                        }
                    }
                }
            }
        }
    }

    private static long[] shape(GgmlModelFile f, String name) {
        return dev.dictum.whisper.format.WhisperTensorLayout.shapes(f.dims()).get(name);
    }
}
