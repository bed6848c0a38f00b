package dev.dictum.audio;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Arrays;

/** Entry point for loading audio for recognition: any supported WAV in, 16 kHz mono floats out. */
public final class AudioInput {
  public static final int SAMPLE_RATE = Audio16kStream.SAMPLE_RATE;

  private static final int CHUNK = 16_384;
  /** Largest array Java can allocate safely. */
  private static final long MAX_SAMPLES = Integer.MAX_VALUE - 8;

  private AudioInput() {}

  /**
   * Reads a whole file into memory as 16 kHz mono, for clips up to a few minutes. A 16 kHz
   * sample costs 4 bytes, so an hour is about 230 MB; use {@link #open(Path)} for long recordings.
   *
   * @throws AudioFormatException if the file is not a readable WAV
   */
  public static float[] readMono16k(Path file) throws IOException {
    try (Audio16kStream stream = open(file)) {
      return readAll(stream, String.valueOf(file.getFileName()));
    }
  }

  /** Streams a file as 16 kHz mono chunks; the caller closes it. */
  public static Audio16kStream open(Path file) throws IOException {
    return new Audio16kStream(WavStream.open(file));
  }

  /** Streams WAV bytes from {@code in} (which the result owns) as 16 kHz mono chunks. */
  public static Audio16kStream open(InputStream in, String sourceName) throws IOException {
    return new Audio16kStream(WavStream.open(in, sourceName));
  }

  private static float[] readAll(Audio16kStream stream, String source) throws IOException {
    long expected = stream.expectedSamples();
    // The expected length comes from the file size, but start modestly and grow anyway in case
    // the file is shorter than it claims.
    float[] all = new float[Math.clamp(expected + 16, CHUNK, 1 << 22)];
    int size = 0;
    float[] chunk = new float[CHUNK];
    int n;
    while ((n = stream.read(chunk)) >= 0) {
      if (size + (long) n > MAX_SAMPLES) {
        throw new AudioFormatException(source, "too long to load at once; stream it with AudioInput.open()");
      }
      if (size + n > all.length) {
        all = Arrays.copyOf(all, (int) Math.min(MAX_SAMPLES, Math.max(size + (long) n, all.length * 2L)));
      }
      System.arraycopy(chunk, 0, all, size, n);
      size += n;
    }
    return size == all.length ? all : Arrays.copyOf(all, size);
  }
}
