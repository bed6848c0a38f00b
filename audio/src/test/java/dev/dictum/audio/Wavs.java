package dev.dictum.audio;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;

/** Test shortcuts for reading a whole WAV through the streaming reader. */
final class Wavs {
  private Wavs() {}

  static float[] readAll(WavStream s) throws IOException {
    return drain(s::read, 1000);
  }

  static float[] readAll(byte[] wav) throws IOException {
    try (WavStream s = open(wav)) {
      return readAll(s);
    }
  }

  static float[] readAll(java.nio.file.Path file) throws IOException {
    try (WavStream s = WavStream.open(file)) {
      return readAll(s);
    }
  }

  static WavStream open(byte[] wav) throws IOException {
    return WavStream.open(new ByteArrayInputStream(wav), "test.wav");
  }

  static float[] readAll(Audio16kStream s) throws IOException {
    return drain(s::read, 4096);
  }

  /** A stream's read(float[]): the count it filled, or negative at the end. */
  private interface SampleReader {
    int read(float[] buf) throws IOException;
  }

  /** Reads until the end in chunks of {@code chunk} (each caller keeps its own chunk size). */
  private static float[] drain(SampleReader reader, int chunk) throws IOException {
    float[] all = new float[0];
    float[] buf = new float[chunk];
    int n;
    while ((n = reader.read(buf)) >= 0) {
      int size = all.length;
      all = Arrays.copyOf(all, size + n);
      System.arraycopy(buf, 0, all, size, n);
    }
    return all;
  }

  static float[] sine(double freq, double amplitude, int rate, int frames) {
    float[] x = new float[frames];
    for (int i = 0; i < frames; i++) {
      x[i] = (float) (amplitude * Math.sin(2 * Math.PI * freq * i / rate));
    }
    return x;
  }
}
