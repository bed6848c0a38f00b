package dev.dictum.audio;

/**
 * What a WAV header says about its audio.
 *
 * @param sampleRate frames per second
 * @param channels interleaved channels per frame (the reader mixes them to mono)
 * @param bitsPerSample valid bits per sample as declared (may be less than the container, e.g. 20 in 24)
 * @param encoding how each sample is stored
 * @param frameCount frames in the data chunk, or -1 when the header does not say (streamed WAVs).
 *     When reading a file it is clipped to what the file really holds; an {@link java.io.InputStream}
 *     that ends early delivers fewer.
 */
public record WavInfo(int sampleRate, int channels, int bitsPerSample, SampleEncoding encoding, long frameCount) {

  /** Bytes per frame (all channels of one sampling instant). */
  public int blockAlign() {
    return channels * encoding.bytesPerSample();
  }

  /** Duration in seconds, or NaN if the frame count is unknown. */
  public double durationSeconds() {
    return frameCount < 0 ? Double.NaN : (double) frameCount / sampleRate;
  }
}
