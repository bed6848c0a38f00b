package dev.dictum.whisper.format.ct2;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.dictum.gpu.HostTensor;
import dev.dictum.whisper.format.ModelFormatException;
import dev.dictum.whisper.format.WhisperTensorLayout;
import dev.dictum.whisper.testutil.Ct2Writer;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Any bytes as model.bin, beside a valid English vocabulary.json: opening and reading every
 * tensor either works or throws ModelFormatException. Seeds in Ct2FuzzTestInputs/openAndReadEverything.
 */
class Ct2FuzzTest {
    private static final Path DIR = directoryWithVocabulary();

    @FuzzTest(maxDuration = "90s")
    void openAndReadEverything(byte[] modelBin) throws IOException {
        Files.write(DIR.resolve("model.bin"), modelBin);
        try (Ct2ModelDirectory m = Ct2ModelDirectory.open(DIR)) {
            var shapes = WhisperTensorLayout.shapes(m.dims());
            for (String name : m.names()) {
                HostTensor t = m.tensor(name, shapes.get(name));
                t.data().get(ValueLayout.JAVA_BYTE, 0);
                t.data().get(ValueLayout.JAVA_BYTE, t.data().byteSize() - 1);
                if (t.rowScales() != null) {
                    t.rowScales().get(ValueLayout.JAVA_FLOAT_UNALIGNED, t.rowScales().byteSize() - 4);
                }
            }
            m.generation().suppressTokens();
        } catch (ModelFormatException expected) {
            // the only allowed failure
        }
    }

    private static Path directoryWithVocabulary() {
        try {
            Path dir = Files.createTempDirectory("ct2-fuzz");
            dir.toFile().deleteOnExit();
            new ObjectMapper().writeValue(dir.resolve("vocabulary.json").toFile(), Ct2Writer.tokens(51864));
            dir.resolve("vocabulary.json").toFile().deleteOnExit();
            dir.resolve("model.bin").toFile().deleteOnExit();
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
