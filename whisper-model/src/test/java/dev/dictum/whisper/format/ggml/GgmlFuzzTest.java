package dev.dictum.whisper.format.ggml;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.dictum.gpu.HostTensor;
import dev.dictum.whisper.format.ModelFormatException;
import dev.dictum.whisper.format.WhisperTensorLayout;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Any bytes as a ggml file: opening and reading every tensor either works or throws
 * ModelFormatException, nothing else. Under plain {@code mvn test} this runs the seeds in
 * GgmlFuzzTestInputs/openAndReadEverything (regression mode); JAZZER_FUZZ=1 fuzzes.
 */
class GgmlFuzzTest {

    @FuzzTest(maxDuration = "90s")
    void openAndReadEverything(byte[] data) throws IOException {
        Path file = Files.createTempFile("ggml-fuzz", ".bin");
        try {
            Files.write(file, data);
            try (GgmlModelFile f = GgmlModelFile.open(file)) {
                var shapes = WhisperTensorLayout.shapes(f.dims());
                for (String name : f.names()) {
                    HostTensor t = f.tensor(name, shapes.get(name));
                    // Touch both ends: the slice must lie inside the mapping.
                    t.data().get(ValueLayout.JAVA_BYTE, 0);
                    t.data().get(ValueLayout.JAVA_BYTE, t.data().byteSize() - 1);
                }
                f.vocabulary().bytes(f.vocabulary().textTokenCount() - 1);
                f.generation().suppressTokens();
            } catch (ModelFormatException expected) {
                // the only allowed failure
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
