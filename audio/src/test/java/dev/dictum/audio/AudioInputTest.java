package dev.dictum.audio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AudioInputTest {
  @TempDir Path dir;

  @Test
  void stereo44kBecomes16kMono() throws IOException {
    int rate = 44_100;
    int frames = 3 * rate / 2;
    float[] left = Wavs.sine(1_000, 0.6, rate, frames);
    float[] stereo = new float[2 * frames];
    for (int i = 0; i < frames; i++) {
      stereo[2 * i] = left[i];
      stereo[2 * i + 1] = -0.2f * left[i]; // mono mix = 0.4 * left
    }
    Path file = dir.resolve("stereo.wav");
    WavWriter.write(file, stereo, rate, 2, WavWriter.Format.FLOAT_32);

    float[] mono = AudioInput.readMono16k(file);
    assertThat(mono).hasSize(24_000);
    assertThat(Tones.amplitudeAt(mono, 4_000, 16_000, 1_000, 16_000)).isCloseTo(0.24, offset(0.0024));
  }

  @Test
  void streamMatchesWholeFileWhateverTheReadSize() throws IOException {
    Path file = dir.resolve("tone.wav");
    WavWriter.write(file, Wavs.sine(300, 0.5, 8_000, 20_001), 8_000, 1, WavWriter.Format.PCM_16);
    float[] whole = AudioInput.readMono16k(file);
    assertThat(whole).hasSize(40_002);

    for (int size : new int[] {1, 37, 4_096, 100_000}) {
      try (Audio16kStream s = AudioInput.open(file)) {
        assertThat(s.sourceInfo().sampleRate()).isEqualTo(8_000);
        assertThat(s.expectedSamples()).isEqualTo(40_002);
        float[] streamed = new float[whole.length];
        int total = 0;
        float[] buf = new float[size];
        int n;
        while ((n = s.read(buf)) >= 0) {
          System.arraycopy(buf, 0, streamed, total, n);
          total += n;
        }
        assertThat(total).isEqualTo(whole.length);
        assertThat(streamed).as("read size %d", size).containsExactly(whole);
      }
    }
  }

  @Test
  void opensInputStreams() throws IOException {
    Path file = dir.resolve("s.wav");
    WavWriter.write(file, new float[] {0.5f, -0.5f, 0.25f}, 16_000, 1, WavWriter.Format.PCM_16);
    try (Audio16kStream s = AudioInput.open(Files.newInputStream(file), "upload")) {
      assertThat(Wavs.readAll(s)).containsExactly(0.5f, -0.5f, 0.25f);
    }
  }
}
