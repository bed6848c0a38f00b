package dev.dictum.whisper.format.hf;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.dictum.gpu.HostTensor;
import dev.dictum.whisper.format.ModelFormatException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Arbitrary bytes as a safetensors file: opening it and reading every tensor either works or
 * throws {@link ModelFormatException}; anything else (an index out of bounds, an arithmetic
 * overflow, a Jackson exception leaking through) is a bug. Under plain {@code mvn test} this runs
 * the seeds in SafetensorsFuzzTestInputs/fuzz (regression mode); with JAZZER_FUZZ=1 it fuzzes.
 */
class SafetensorsFuzzTest {

    @FuzzTest(maxDuration = "60s")
    void fuzz(byte[] data) throws IOException {
        Path file = Files.createTempFile("fuzz", ".safetensors");
        try {
            Files.write(file, data);
            try (Arena arena = Arena.ofConfined()) {
                SafetensorsFile s = SafetensorsFile.open(file, arena);
                for (String name : s.names()) {
                    HostTensor t = s.tensor(name);
                    // Touch the last byte: the slice must lie inside the mapping.
                    t.data().get(ValueLayout.JAVA_BYTE, t.data().byteSize() - 1);
                }
            } catch (ModelFormatException expected) {
                if (expected.getMessage().contains("\n")) {
                    throw new AssertionError("multi-line message: " + expected.getMessage());
                }
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
