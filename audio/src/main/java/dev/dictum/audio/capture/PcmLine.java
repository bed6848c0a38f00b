package dev.dictum.audio.capture;

import java.io.IOException;

/**
 * An open source of signed 16-bit little-endian PCM: a Java Sound {@code TargetDataLine}, or a
 * stand-in in tests. Reads block until some data is there.
 */
public interface PcmLine extends AutoCloseable {

  int sampleRate();

  int channels();

  /**
   * Reads up to {@code len} bytes (whole frames).
   *
   * @return bytes read; -1 when the device is gone
   * @throws IOException when the device failed (unplugged, the sound server went away)
   */
  int read(byte[] buf, int off, int len) throws IOException;

  /** A readable name, e.g. "USB Microphone [plughw:1,0]". */
  String name();

  @Override
  void close();
}
