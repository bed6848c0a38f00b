package dev.dictum.audio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A recording far larger than any buffer streams through in bounded memory. */
class LongRecordingTest {
  private static final int RATE = 22_050;
  private static final int MINUTES = 10;
  private static final long FRAMES = (long) MINUTES * 60 * RATE;
  private static final double TONE_HZ = 440;

  @TempDir Path dir;

  @Test
  void tenMinutesAt22kStreamWithoutLoadingTheFile() throws IOException {
    Path file = dir.resolve("long.wav");
    writeTone(file);
    long fileBytes = Files.size(file);
    assertThat(fileBytes).isGreaterThan(50_000_000L); // 26 MB of int16, 38 MB as 16 kHz floats

    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long baseline = usedHeapAfterGc(memory);
    long peakGrowth = 0;
    long samples = 0;
    double maxAbs = 0;
    float[] buf = new float[16_000];
    try (Audio16kStream stream = AudioInput.open(file)) {
      assertThat(stream.expectedSamples()).isEqualTo(FRAMES * 16_000 / RATE);
      int n;
      int chunks = 0;
      while ((n = stream.read(buf)) >= 0) {
        for (int i = 0; i < n; i++) {
          maxAbs = Math.max(maxAbs, Math.abs(buf[i]));
        }
        samples += n;
        if (++chunks % 100 == 0) { // every 100 s of audio, see what is really retained
          peakGrowth = Math.max(peakGrowth, usedHeapAfterGc(memory) - baseline);
        }
      }
    }
    assertThat(samples).isEqualTo(FRAMES * 16_000 / RATE);
    assertThat(maxAbs).isBetween(0.49, 0.51);
    assertThat(peakGrowth).as("heap retained while streaming").isLessThan(8L << 20);
  }

  /** Writes the tone a second at a time, so the test itself never holds the whole recording. */
  private static void writeTone(Path file) throws IOException {
    float[] second = new float[RATE];
    try (WavWriter w = WavWriter.create(file, RATE, 2, WavWriter.Format.PCM_16)) {
      float[] stereo = new float[2 * RATE];
      for (long start = 0; start < FRAMES; start += RATE) {
        for (int i = 0; i < RATE; i++) {
          second[i] = (float) (0.5 * Math.sin(2 * Math.PI * TONE_HZ * (start + i) / RATE));
          stereo[2 * i] = second[i];
          stereo[2 * i + 1] = second[i];
        }
        w.write(stereo);
      }
    }
  }

  private static long usedHeapAfterGc(MemoryMXBean memory) {
    System.gc();
    return memory.getHeapMemoryUsage().getUsed();
  }
}
