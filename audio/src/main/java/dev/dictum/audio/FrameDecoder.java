package dev.dictum.audio;

/**
 * Turns interleaved little-endian frames into mono floats in [-1, 1) by averaging the channels.
 *
 * <p>Integer PCM is scaled by its full-scale value (int16 / 32768 etc.) so that a 16-bit file
 * decodes exactly as Whisper's reference loader does. Float input is checked for NaN and infinity
 * because one such sample poisons every later stage (log-mel, attention) silently.
 */
final class FrameDecoder {
  private static final double SCALE_8 = 1.0 / 128;
  private static final double SCALE_16 = 1.0 / 32_768;
  private static final double SCALE_24 = 1.0 / 8_388_608;
  private static final double SCALE_32 = 1.0 / 2_147_483_648.0;

  private final SampleEncoding encoding;
  private final int channels;
  private final String source;

  FrameDecoder(SampleEncoding encoding, int channels, String source) {
    this.encoding = encoding;
    this.channels = channels;
    this.source = source;
  }

  /**
   * Decodes {@code frames} frames from {@code bytes} into {@code out[off..]}.
   *
   * @param firstFrame index of the first frame in the file, for error messages
   */
  void decode(byte[] bytes, int frames, float[] out, int off, long firstFrame) {
    int width = encoding.bytesPerSample();
    int p = 0;
    for (int f = 0; f < frames; f++) {
      double sum = 0;
      for (int c = 0; c < channels; c++, p += width) {
        double sample = sample(bytes, p);
        if (!Double.isFinite(sample)) {
          throw new AudioFormatException(source, (Double.isNaN(sample) ? "NaN" : "infinite") + " float sample at frame "
              + (firstFrame + f) + (channels > 1 ? ", channel " + c : ""));
        }
        sum += sample;
      }
      float mono = (float) (sum / channels);
      if (Float.isInfinite(mono)) {
        // Finite doubles beyond float range (float64 files) would become infinity here.
        throw new AudioFormatException(source, "float sample out of range at frame " + (firstFrame + f));
      }
      out[off + f] = mono;
    }
  }

  private double sample(byte[] b, int p) {
    return switch (encoding) {
      case PCM_UNSIGNED_8 -> ((b[p] & 0xFF) - 128) * SCALE_8;
      case PCM_SIGNED_16 -> (short) ((b[p] & 0xFF) | b[p + 1] << 8) * SCALE_16;
      case PCM_SIGNED_24 -> ((b[p] & 0xFF) | (b[p + 1] & 0xFF) << 8 | b[p + 2] << 16) * SCALE_24;
      case PCM_SIGNED_32 -> int32(b, p) * SCALE_32;
      case FLOAT_32 -> Float.intBitsToFloat(int32(b, p));
      case FLOAT_64 -> Double.longBitsToDouble((int32(b, p) & 0xFFFF_FFFFL) | (long) int32(b, p + 4) << 32);
    };
  }

  private static int int32(byte[] b, int p) {
    return (b[p] & 0xFF) | (b[p + 1] & 0xFF) << 8 | (b[p + 2] & 0xFF) << 16 | b[p + 3] << 24;
  }
}
