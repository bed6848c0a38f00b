package dev.dictum.audio;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * Arbitrary bytes must either decode or fail with {@link AudioFormatException}: any other
 * throwable (index errors, OutOfMemoryError from a trusted size field, a hang) is a reader bug.
 *
 * <p>Under plain {@code mvn test} this replays the seeds in {@code WavReaderFuzzTestInputs/}.
 * To fuzz: {@code scripts/fuzz.sh audio WavReaderFuzzTest 10m}.
 */
class WavReaderFuzzTest {
  private final float[] buffer = new float[333]; // odd size, to exercise partial reads

  @FuzzTest(maxDuration = "30s")
  void readArbitraryBytes(byte[] data) throws IOException {
    try (WavStream stream = WavStream.open(new ByteArrayInputStream(data), "fuzz.wav")) {
      long frames = 0;
      int n;
      while ((n = stream.read(buffer)) >= 0) {
        frames += n;
        for (int i = 0; i < n; i++) {
          if (!Float.isFinite(buffer[i])) {
            throw new AssertionError("non-finite sample escaped the reader at frame " + (frames - n + i));
          }
        }
      }
      long declared = stream.info().frameCount();
      if (declared >= 0 && frames > declared) {
        throw new AssertionError("read " + frames + " frames, header declares " + declared);
      }
    } catch (AudioFormatException expected) {
      if (expected.getMessage().contains("\n")) {
        throw new AssertionError("multi-line error message: " + expected.getMessage());
      }
    }
  }
}
